import { vaasOnce, vaasRender, vaasRoot, vaasValidate, type VaasOnceTask, type VaasSchemaSet } from '../../../src/workers/vaas.task';
import { gatherSchemaSet } from '../../../src/xml/schema-set';
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

    expect(withDocuments).toMatchObject({ ok: true, value: { done: { valid: true, errors: [], decoded: null, rendered: null } } });
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
        const { decoded, rendered, ...result } = once.value.done;
        expect({ decoded, rendered }).toEqual({ decoded: null, rendered: null });
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

  it("renders the package's JSON and triples from its single-pass tree exactly as vaasRender does", async () => {
    for (const [xml, recover] of [
      [statePopulationXml(), false],
      [unknownXml(), true],
      [unknownXml(), false],
    ] as const) {
      const instanceId = 'i-once-test';
      const once = await vaasOnce(task({ xml, recover, render: { instanceId, modelXsd } }));
      if (!once.ok || !('done' in once.value)) throw new Error('expected an answer');
      const answered = once.value.done.recoveredXml ?? xml;
      const separate = await vaasRender({ xml: answered, dmCtId: STATE_POPULATION_CT_ID, instanceId, modelXsd });
      expect(separate.ok).toBe(true);
      expect(once.value.done.rendered).toEqual(separate.ok ? separate.value : null);
      expect(once.value.done.rendered?.ntriples).toContain(instanceId);
    }
  });
});
