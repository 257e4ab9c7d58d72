import { applyRdfLimits, RDF_LIMITS } from '../../../src/rdf/rdf-limits';
import { addRdf, RdfParseError, toNTriples } from '../../../src/rdf/rdf-parse';
import { expectWithinBaseline, msOf } from '../../support/baseline';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const defaults = { ...RDF_LIMITS };
afterEach(() => applyRdfLimits(defaults));

describe('addRdf (streamed Turtle, RDF/XML) and toNTriples', () => {
  it('streams a Turtle document larger than one chunk into N-Triples lines, duplicates removed', async () => {
    const turtle = Array.from({ length: 20_000 }, (_, i) => `<urn:s:${i % 10_000}> <urn:p> "v${i % 10_000}" .`).join('\n');
    const lines = new Set<string>();
    expect(await addRdf(bytes(`@prefix ex: <urn:ex:> .\n${turtle}\nex:a ex:b "é" .`), 'text/turtle', lines)).toBe(20_001);
    const { ntriples, count } = toNTriples(lines);
    expect(count).toBe(10_001);
    expect(ntriples).toContain('<urn:s:9999> <urn:p> "v9999" .\n');
    expect(ntriples).toContain('<urn:ex:a> <urn:ex:b> "é" .\n');
  });

  it('unites documents: RDF/XML and Turtle stating the same triple count it once', async () => {
    const lines = new Set<string>();
    await addRdf(bytes('<urn:a> <urn:b> "c" .'), 'text/turtle', lines);
    const xml = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:x="urn:">
      <rdf:Description rdf:about="urn:a"><x:b>c</x:b></rdf:Description></rdf:RDF>`;
    expect(await addRdf(bytes(xml), 'application/rdf+xml', lines)).toBe(1);
    expect(toNTriples(lines).count).toBe(1);
  });

  it('stops at the first triple past RDF_MAX_TRIPLES and names the setting', async () => {
    applyRdfLimits({ maxTriples: 100 });
    const turtle = Array.from({ length: 100_000 }, (_, i) => `<urn:s:${i}> <urn:p> "v" .`).join('\n');
    const withinLimit = await msOf(() => addRdf(bytes(turtle.split('\n', 50).join('\n')), 'text/turtle', new Set()));
    const refusal = await msOf(() => expect(addRdf(bytes(turtle), 'text/turtle', new Set())).rejects.toThrow(/the limit is 100 \(RDF_MAX_TRIPLES\)/));
    expectWithinBaseline(refusal, withinLimit, 200);
  });

  it('refuses a term past RDF_MAX_TERM_LENGTH, invalid UTF-8 and Turtle syntax errors as RdfParseError', async () => {
    applyRdfLimits({ maxTermLength: 10 });
    await expect(addRdf(bytes('<urn:a> <urn:b> "a long literal" .'), 'text/turtle', new Set())).rejects.toThrow(/RDF_MAX_TERM_LENGTH/);
    await expect(addRdf(Buffer.from([0x3c, 0xff, 0xfe, 0x3e]), 'text/turtle', new Set())).rejects.toThrow('the file is not valid UTF-8');
    await expect(addRdf(bytes('<urn:a> <urn:b> .'), 'text/turtle', new Set())).rejects.toBeInstanceOf(RdfParseError);
  });
});
