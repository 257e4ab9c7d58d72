import { Parser, type Quad } from 'n3';
import { parse } from 'oxigraph';
import { writeRdfXml } from '../../../src/rdf/rdfxml-writer';
import { blankNode, literal, namedNode, quad } from '../../../src/rdf/terms';
import { writeTurtle } from '../../../src/rdf/turtle-writer';

const EX = 'http://example.org/';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const ex = (local: string) => namedNode(EX + local);

const list1 = blankNode('l1');
const list2 = blankNode('l2');
const QUADS: Quad[] = [
  quad(ex('a'), namedNode(`${RDF}type`), ex('Thing')),
  quad(ex('a'), ex('label'), literal('A & <b> "c"', 'en')),
  quad(ex('a'), ex('count'), literal('3', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
  quad(ex('a'), ex('members'), list1),
  quad(list1, namedNode(`${RDF}first`), ex('x')),
  quad(list1, namedNode(`${RDF}rest`), list2),
  quad(list2, namedNode(`${RDF}first`), ex('y')),
  quad(list2, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
  quad(ex('b'), ex('shared'), blankNode('s')),
  quad(ex('c'), ex('shared'), blankNode('s')),
  quad(blankNode('s'), ex('label'), literal('plain')),
];

/** Sorted triple lines with every blank node written as `_` (enough to compare these small graphs). */
function canonical(
  quads: Array<{
    subject: { termType: string; value: string };
    predicate: { value: string };
    object: { termType: string; value: string; language?: string; datatype?: { value: string } };
  }>,
): string[] {
  const term = (t: { termType: string; value: string; language?: string; datatype?: { value: string } }) => {
    if (t.termType === 'BlankNode') return '_';
    if (t.termType === 'Literal') return `"${t.value}"@${t.language ?? ''}^^${t.datatype?.value}`;
    return `<${t.value}>`;
  };
  return quads.map((q) => `${term(q.subject)} <${q.predicate.value}> ${term(q.object)}`).sort();
}

describe('RDF writers', () => {
  it('writes Turtle that parses back to the same triples, with lists and single-use blank nodes inline', async () => {
    const turtle = await writeTurtle(QUADS, { ex: EX, rdf: RDF });
    expect(turtle).toContain('ex:members (ex:x ex:y)');
    expect(turtle).not.toContain('_:l1');
    expect(canonical(new Parser().parse(turtle))).toEqual(canonical(QUADS));
    expect(new Parser().parse(turtle)).toHaveLength(QUADS.length);
  });

  it('writes RDF/XML that oxigraph parses back to the same triples, escaping text and keeping languages and datatypes', () => {
    const xml = writeRdfXml([...QUADS, QUADS[1]], { ex: EX });
    expect(xml).toContain('<ex:Thing rdf:about="http://example.org/a">');
    expect(xml).toContain('<ex:label xml:lang="en">A &amp; &lt;b&gt; &quot;c&quot;</ex:label>');
    const parsed = parse(xml, { format: 'application/rdf+xml' });
    expect(parsed).toHaveLength(QUADS.length);
    expect(canonical(parsed)).toEqual(canonical(QUADS));
    const shared = parsed.filter((q) => q.predicate.value === `${EX}shared`).map((q) => q.object.value);
    expect(new Set(shared).size).toBe(1);
  });

  it('refuses a predicate that has no prefixed name in RDF/XML', () => {
    expect(() => writeRdfXml([quad(ex('a'), namedNode('urn:no-prefix'), ex('b'))], { ex: EX })).toThrow(
      'RDF/XML needs a prefixed name for predicate <urn:no-prefix>',
    );
  });
});
