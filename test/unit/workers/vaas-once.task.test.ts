import { vaasOnce, vaasRender, vaasRoot, vaasValidate, type VaasOnceTask, type VaasSchemaSet } from '../../../src/workers/vaas.task';
import { packageZip, vaasPackageFiles } from '../../../src/packages/vaas-package-zip';
import { gatherSchemaSet } from '../../../src/xml/schema-set';
import { zipEntries } from '../../support/zip';
import { offlineResolver, STATE_POPULATION_CT_ID, statePopulationNaXml, statePopulationXml, statePopulationXsd } from '../xml/fixtures';

const unknownXml = () => statePopulationXml().replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>unknown</xdcount-value>');

describe('vaasOnce, a VaaS validation in one pool trip', () => {
  let schema: VaasSchemaSet;
  let modelXsd: string;
  const task = (over: Partial<VaasOnceTask> = {}): VaasOnceTask => ({
    xml: statePopulationXml(),
    expected: { dmCtId: STATE_POPULATION_CT_ID },
    schema,
    recover: false,
    countEvs: false,
    keepText: false,
    render: null,
    ...over,
  });

  beforeAll(async () => {
    modelXsd = statePopulationXsd().content;
    const set = await gatherSchemaSet(statePopulationXsd(), offlineResolver());
    schema = { key: `once-${set.key}`, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) };
  });

  it('asks for the documents of a schema the thread has not compiled, then validates by its key alone', async () => {
    expect(await vaasOnce(task({ schema: { key: schema.key } }))).toEqual({ ok: true, value: { needSchema: true } });
    const withDocuments = await vaasOnce(task());
    const byKey = await vaasOnce(task({ schema: { key: schema.key } }));

    expect(withDocuments).toMatchObject({ ok: true, value: { done: { valid: true, errors: [], decoded: null, packaged: null } } });
    expect(byKey).toEqual(withDocuments);
  });

  it('answers otherRoot when the root is another model than the guess, before needing any schema', async () => {
    const outcome = await vaasOnce(task({ expected: { dmCtId: 'someothermodel' }, schema: { key: 'never-compiled' } }));
    expect(outcome).toEqual({ ok: true, value: { otherRoot: STATE_POPULATION_CT_ID } });
  });

  it('refuses a malformed instance or a root outside SDC4 with the same 400 as vaasRoot', async () => {
    for (const xml of ['<a><b></a>', '<dm-x/>', `<?xml version="1.0"?>\n<sdc4:dm-${STATE_POPULATION_CT_ID} xmlns:sdc4="x"/>`]) {
      const once = await vaasOnce(task({ xml, schema: { key: 'never-compiled' } }));
      const root = await vaasRoot(xml);
      expect(once).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_xml' } });
      expect(once).toEqual(root);
    }
  });

  it('gives the answers vaasValidate gives, strict and recovering, with the EV count', async () => {
    for (const xml of [statePopulationXml(), statePopulationNaXml(), unknownXml()]) {
      for (const recover of [false, true]) {
        const once = await vaasOnce(task({ xml, recover, countEvs: true }));
        const twice = await vaasValidate({ xml, schema, recover, countEvs: true });
        if (!once.ok || !('done' in once.value) || !twice.ok) throw new Error('expected both to answer');
        const { decoded, packaged, ...result } = once.value.done;
        expect({ decoded, packaged }).toEqual({ decoded: null, packaged: null });
        expect(result).toEqual(twice.value);
      }
    }
    const recovered = await vaasOnce(task({ xml: unknownXml(), recover: true, countEvs: true }));
    expect(recovered).toMatchObject({ ok: true, value: { done: { valid: true, evCount: 1, recoveredXml: expect.stringContaining('sdc4:UNK') } } });
  });

  it('decodes bytes and sends the text back only when asked', async () => {
    const bytes = Buffer.from(statePopulationXml());
    expect(await vaasOnce(task({ xml: bytes }))).toMatchObject({ ok: true, value: { done: { valid: true, decoded: null } } });
    expect(await vaasOnce(task({ xml: bytes, keepText: true }))).toMatchObject({
      ok: true,
      value: { done: { valid: true, decoded: statePopulationXml() } },
    });
  });

  it("packages the answer's instance as vaasRender and the package zip do, from its single-pass tree", async () => {
    for (const [xml, recover] of [
      [statePopulationXml(), false],
      [unknownXml(), true],
      [unknownXml(), false],
    ] as const) {
      const instanceId = 'i-once-test';
      const title = 'StatePopulation';
      const once = await vaasOnce(task({ xml, recover, render: { instanceId, modelXsd, title } }));
      if (!once.ok || !('done' in once.value) || !once.value.done.packaged) throw new Error('expected a package');
      const answered = once.value.done.recoveredXml ?? xml;
      const separate = await vaasRender({ xml: answered, dmCtId: STATE_POPULATION_CT_ID, instanceId, modelXsd });
      if (!separate.ok) throw new Error('expected vaasRender to answer');
      const expected = await packageZip(vaasPackageFiles({ dmCtId: STATE_POPULATION_CT_ID, title, xml: answered, xsd: modelXsd, ...separate.value }));
      const entries = await zipEntries(Buffer.from(once.value.done.packaged));
      expect(entries).toEqual(await zipEntries(expected));
      expect(entries.get(`dm-${STATE_POPULATION_CT_ID}-instance.nt`)?.toString()).toContain(instanceId);
    }
  });
});
