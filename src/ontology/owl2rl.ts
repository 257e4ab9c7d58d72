import { Parser, Reasoner, Store, type Quad } from 'n3';

/** The OWL 2 RL subclass and type rules (scm-sco, cax-sco, scm-eqc1) as plain N3 rules for n3's Reasoner. */
const RULES = `
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
{ ?a rdfs:subClassOf ?b . ?b rdfs:subClassOf ?c } => { ?a rdfs:subClassOf ?c } .
{ ?x rdf:type ?a . ?a rdfs:subClassOf ?b } => { ?x rdf:type ?b } .
{ ?a owl:equivalentClass ?b } => { ?a rdfs:subClassOf ?b . ?b rdfs:subClassOf ?a } .
`;

/** The triples the rules add to the given ones (explicit triples are not repeated). Inferences about blank nodes
 * are left out: a blank node written to another graph would no longer be the same node. */
export function materialiseOwl2Rl(quads: Quad[]): Quad[] {
  const store = new Store(quads);
  const explicit = new Store(quads);
  new Reasoner(store).reason(new Store(new Parser({ format: 'text/n3' }).parse(RULES)));
  return store
    .getQuads(null, null, null, null)
    .filter((quad) => !explicit.has(quad) && quad.subject.termType === 'NamedNode' && quad.object.termType !== 'BlankNode');
}
