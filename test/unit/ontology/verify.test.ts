import { reasonWithKonclude, unsatisfiableClasses } from '../../../src/ontology/konclude';

/** The parts of `ontology verify` that need no reasoner; the real Konclude runs in
 * test/integration/ontology-verify.test.ts. */
describe('ontology verify without a reasoner', () => {
  it('fails with a clear error when the Konclude binary is missing', async () => {
    await expect(reasonWithKonclude('', { konclude: '/nonexistent/Konclude' })).rejects.toThrow(/install the Debian package konclude/);
  });

  it('reads unsatisfiable classes from a classification in OWL/XML', () => {
    const owx = `<EquivalentClasses><Class IRI="http://x/A"/><Class IRI="http://www.w3.org/2002/07/owl#Nothing"/></EquivalentClasses>
<EquivalentClasses><Class IRI="http://x/B"/><Class IRI="http://x/C"/></EquivalentClasses>
<EquivalentClasses><Class abbreviatedIRI="owl:Nothing"/><Class IRI="http://x/D"/></EquivalentClasses>`;
    expect(unsatisfiableClasses(owx)).toEqual(['http://x/A', 'http://x/D']);
  });
});
