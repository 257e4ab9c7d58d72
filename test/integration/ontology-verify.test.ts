import { reasonWithKonclude } from '../../src/ontology/konclude';
import { parseRdf, readOntologyFile } from '../../src/ontology/ontology-files';
import { CHECK_NAMES, formatChecksTable, verifyAlignment } from '../../src/ontology/verify';
import { NS } from '../../src/ontology/vocabulary';
import { namedNode, quad } from '../../src/rdf/terms';
import { writeTurtle } from '../../src/rdf/turtle-writer';

/** The alignment checks in the real reasoner (Debian's `Konclude`, found on the PATH). */
describe('ontology verify (real Konclude)', () => {
  it('passes all four checks on the shipped files, with 50 unsatisfiable classes in the negative control', async () => {
    const { checks, ok } = await verifyAlignment({ timeoutMs: 60_000 });
    expect(checks.map((check) => [check.name, check.passed])).toEqual([
      [CHECK_NAMES.reasoner, true],
      [CHECK_NAMES.sparql, true],
      [CHECK_NAMES.withoutMapping, true],
      [CHECK_NAMES.negativeControl, true],
    ]);
    expect(ok).toBe(true);
    expect(checks[0].detail).toMatch(/^consistent; 0 unsatisfiable classes/);
    expect(checks[1].detail).toBe('53 of 53 sdc4 classes returned');
    expect(checks[2].detail).toMatch(/^0 sdc4 classes or individuals/);
    expect(checks[3].detail).toBe('50 unsatisfiable classes (expected 50: CMC and its subclasses)');
    const table = formatChecksTable(checks);
    expect(table.split('\n')).toHaveLength(6);
    expect(table).not.toContain('FAIL');
  });

  it('reports an inconsistent ontology as inconsistent although Konclude exits 0', async () => {
    const core = parseRdf(await readOntologyFile('sdc4.ttl'), 'text/turtle');
    const clash = [
      quad(namedNode(`${NS.sdc4}equal`), namedNode(`${NS.rdf}type`), namedNode(`${NS.sdc4}XdAnyType`)),
      quad(namedNode(`${NS.sdc4}MagnitudeStatus`), namedNode(`${NS.owl}disjointWith`), namedNode(`${NS.sdc4}CMC`)),
    ];
    const report = await reasonWithKonclude(await writeTurtle([...core, ...clash], { sdc4: NS.sdc4 }), { timeoutMs: 60_000 });
    expect(report).toEqual({ consistent: false, unsatisfiable: [] });
  });
});
