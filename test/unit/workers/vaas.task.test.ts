import { vaasRoot, vaasValidate, type VaasSchemaSet } from '../../../src/workers/vaas.task';
import { gatherSchemaSet } from '../../../src/xml/schema-set';
import { intervalModel, offlineResolver, statePopulationXml, statePopulationXsd } from '../xml/fixtures';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';

const intervalXml = (upper: string, extra = '') => `<?xml version="1.0"?>
<sdc4:dm-interval xmlns:sdc4="${SDC4}"><sdc4:ms-interval>
  <label>Age range</label>
  <lower><invl-int>18</invl-int></lower>
  <upper>${upper}</upper>
  <lower_included>${extra || 'true'}</lower_included>
  <upper_included>true</upper_included>
  <lower_bounded>true</lower_bounded>
  <upper_bounded>true</upper_bounded>
</sdc4:ms-interval></sdc4:dm-interval>`;

async function portable(main: { name: string; content: string }): Promise<VaasSchemaSet> {
  const set = await gatherSchemaSet(main, offlineResolver());
  return { key: set.key, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) };
}

describe('the VaaS worker tasks', () => {
  let interval: VaasSchemaSet;
  let statePopulation: VaasSchemaSet;
  beforeAll(async () => {
    interval = await portable(intervalModel);
    statePopulation = await portable(statePopulationXsd());
  });

  it('count a failed XSD 1.1 assertion as semantic and a datatype error as structural; either makes it invalid', async () => {
    const assertion = await vaasValidate({ xml: intervalXml('<invl-date>2020-01-01</invl-date>'), schema: interval, recover: true, countEvs: false });
    const datatype = await vaasValidate({ xml: intervalXml('<invl-int>65</invl-int>', 'maybe'), schema: interval, recover: false, countEvs: false });
    const valid = await vaasValidate({ xml: intervalXml('<invl-int>65</invl-int>'), schema: interval, recover: false, countEvs: false });

    expect(assertion).toMatchObject({ ok: true, value: { valid: false, structuralErrors: 0, semanticErrors: 1, errors: [{ line: 2 }] } });
    expect(datatype).toMatchObject({ ok: true, value: { valid: false, structuralErrors: 1, semanticErrors: 0, errors: [{ line: 6 }] } });
    expect(valid).toMatchObject({ ok: true, value: { valid: true, structuralErrors: 0, semanticErrors: 0, errors: [] } });
  });

  it('validate by the schema key alone once the thread compiled it, and ask for the documents before', async () => {
    const xml = intervalXml('<invl-int>65</invl-int>');
    const unknown = await vaasValidate({ xml, schema: { key: 'never-compiled' }, recover: false, countEvs: false });
    expect(unknown).toMatchObject({ ok: false, error: { status: 409, code: 'schema_not_loaded' } });
    await vaasValidate({ xml, schema: interval, recover: false, countEvs: false });
    const byKey = await vaasValidate({ xml, schema: { key: interval.key }, recover: false, countEvs: false });
    expect(byKey).toMatchObject({ ok: true, value: { valid: true } });
  });

  it('count the exceptional values of the instance it answers with', async () => {
    const xml = statePopulationXml().replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>unknown</xdcount-value>');
    const outcome = await vaasValidate({ xml, schema: statePopulation, recover: true, countEvs: true });

    expect(outcome).toMatchObject({
      ok: true,
      value: { valid: true, evCount: 1, corrections: [{ line: 25, ev: 'EV_UNKNOWN', element: 'sdc4:UNK' }] },
    });
  });

  it('find the model the root names, or answer 400', async () => {
    expect(await vaasRoot(Buffer.from(statePopulationXml()))).toMatchObject({ ok: true, value: { dmCtId: 'its7j6bvrb9n2fxdcxmoemod' } });
    expect(await vaasRoot('<dm-x/>')).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_xml' } });
    expect(await vaasRoot('<a><b></a>')).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_xml' } });
  });
});
