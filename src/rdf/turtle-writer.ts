import { Writer, type BlankNode, type Quad, type Quad_Object } from 'n3';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** Turtle for the given triples in the given order. A blank node used once as an object is written inline
 * (`[ … ]`, or `( … )` for an RDF list), as ontology tools do; n3 groups consecutive triples of one subject. */
export function writeTurtle(quads: Quad[], prefixes: Record<string, string>): Promise<string> {
  const writer = new Writer({ prefixes });
  const uses = new Map<string, number>();
  for (const q of quads) if (q.object.termType === 'BlankNode') uses.set(q.object.value, (uses.get(q.object.value) ?? 0) + 1);
  const inlined = (term: Quad['subject'] | Quad_Object) => term.termType === 'BlankNode' && uses.get(term.value) === 1;
  const ownTriples = (node: BlankNode) => quads.filter((q) => q.subject.equals(node));

  const render = (object: Quad_Object): Quad_Object => {
    if (!inlined(object)) return object;
    const own = ownTriples(object as BlankNode);
    const items = listItems(own);
    if (items) return writer.list(items.map(render)) as unknown as Quad_Object;
    return writer.blank(own.map((q) => ({ predicate: q.predicate, object: render(q.object) })));
  };
  const listItems = (own: Quad[]): Quad_Object[] | null => {
    const first = own.find((q) => q.predicate.value === `${RDF}first`);
    const rest = own.find((q) => q.predicate.value === `${RDF}rest`);
    if (!first || !rest || own.length !== 2) return null;
    if (rest.object.termType === 'NamedNode' && rest.object.value === `${RDF}nil`) return [first.object];
    if (!inlined(rest.object)) return null;
    const tail = listItems(ownTriples(rest.object as BlankNode));
    return tail ? [first.object, ...tail] : null;
  };

  for (const q of quads) if (!inlined(q.subject)) writer.addQuad(q.subject, q.predicate, render(q.object));
  return new Promise((resolve, reject) => writer.end((error, result: string) => (error ? reject(error) : resolve(result))));
}
