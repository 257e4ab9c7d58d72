import { jsonObjectXmlBytes } from '../../../src/workers/body.task';
import { decodeXmlBytes } from '../../../src/xml/safe-parse';

/** A large validate/xml body's `xml_content` comes back from its thread as UTF-8 bytes when they decode back to the
 * same text (src/xml/safe-parse.ts decodes bytes by their declaration); otherwise it stays text. */
const parsed = async (xml: unknown) => {
  const outcome = await jsonObjectXmlBytes(Buffer.from(JSON.stringify({ xml_content: xml, sync_triplestore: false })));
  if (!outcome.ok) throw new Error('expected the body to parse');
  return outcome.value;
};

it.each([
  ['no declaration', '<a>é</a>'],
  ['a UTF-8 declaration', '<?xml version="1.0" encoding="UTF-8"?><a>é</a>'],
  ['a utf8 label', "<?xml version='1.0' encoding='utf8'?><a>é</a>"],
])('sends %s back as bytes that decode to the same text', async (_, xml) => {
  const fields = await parsed(xml);
  expect(fields.xml_content).toBeInstanceOf(Uint8Array);
  expect(decodeXmlBytes(fields.xml_content as Uint8Array)).toBe(xml);
  expect(fields.sync_triplestore).toBe(false);
});

it.each([
  ['another declared encoding', '<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>'],
  ['a byte-order mark', '\uFEFF<a>é</a>'],
])('keeps text with %s as text', async (_, xml) => {
  expect((await parsed(xml)).xml_content).toBe(xml);
});

it('leaves an xml_content that is not a string as it is', async () => {
  expect((await parsed(42)).xml_content).toBe(42);
});
