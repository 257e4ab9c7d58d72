import fc from 'fast-check';
import { childElements, ownText, type XElement } from '../../src/xml/dom';
import { EV_TABLE, placeholderRule, validateWithCorrection, type CorrectionResult } from '../../src/xml/ev';
import { parseXmlDom } from '../../src/xml/safe-parse';
import { compileSchema, type CompiledSchema } from '../../src/xml/schema';
import { XmlParseError, XmlValidationError } from '../../src/xml/xml-errors';
import { offlineResolver, statePopulationXml, statePopulationXsd } from './xml/fixtures';

/** Property-based fuzz of the EV corrector over the StatePopulation instance: any mix of kept values, other valid
 * values, placeholders and random text either comes back corrected (every invalid value a placeholder, tagged with
 * its EV, every valid value untouched, a second pass changing nothing) or is refused with XmlValidationError. */

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';

interface Slot {
  /** 1-based line of the fixture that holds the element. */
  line: number;
  tag: string;
  /** Element names from the component (in the SDC4 namespace) down to the slot. */
  path: [string, ...string[]];
  /** A data value the corrector may tag; otherwise a header or metadata element it must never touch. */
  value: boolean;
  /** Texts of the element's type that are valid (besides the fixture's own). */
  valid: string[];
  /** The XSD builtin of a value's type: an empty or blank number is a placeholder, an empty string is not. */
  builtin?: string;
}

const SLOTS: Slot[] = [
  { line: 10, tag: 'creation_timestamp', path: ['dm-its7j6bvrb9n2fxdcxmoemod', 'creation_timestamp'], value: false, valid: ['2024-02-29T00:00:00'] },
  { line: 19, tag: 'xdstring-value', path: ['ms-poq4ywx89zvijxwoqz8djrxj', 'xdstring-value'], value: true, valid: ['Ohio', ''], builtin: 'string' },
  { line: 24, tag: 'label', path: ['ms-ac79bjkqi8906qzjujpwtlsy', 'label'], value: false, valid: [] },
  {
    line: 25,
    tag: 'xdcount-value',
    path: ['ms-ac79bjkqi8906qzjujpwtlsy', 'xdcount-value'],
    value: true,
    valid: ['0', '-7', ' 123456789012 ', '+5'],
    builtin: 'integer',
  },
  {
    line: 28,
    tag: 'xdstring-value',
    path: ['ms-ac79bjkqi8906qzjujpwtlsy', 'xdcount-units', 'xdstring-value'],
    value: true,
    valid: ['persons'],
    builtin: 'string',
  },
  { line: 35, tag: 'xdcount-value', path: ['ms-w30d6kzcdcfnjxvk94w58nfw', 'xdcount-value'], value: true, valid: ['1', '99'], builtin: 'integer' },
  {
    line: 45,
    tag: 'xdquantity-value',
    path: ['ms-hzsoktbrtlhowsl71kywg81w', 'xdquantity-value'],
    value: true,
    valid: ['12.5', '-0.001', '7', '.5'],
    builtin: 'decimal',
  },
];

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
/** Characters XML 1.0 allows in text (random strings keep to them: the parser's refusals are fuzzed elsewhere). */
const xmlChar = (text: string) => !/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(text);

const randomCase = (text: string, flips: boolean[]) =>
  [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join('');
const padding = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \n\t ');
/** A placeholder of the table in any case, padded and with its inner spaces stretched. */
const placeholder = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...EV_TABLE.flatMap((r) => (Array.isArray(r.placeholders) ? r.placeholders : []))),
      fc.integer({ min: 2, max: 12 }).map((n) => '-'.repeat(n)),
      fc.integer({ min: 3, max: 12 }).map((n) => '*'.repeat(n)),
    ),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    padding,
    padding,
    fc.constantFrom(' ', '  ', '\t', '\n'),
  )
  .map(([p, flips, before, after, inner]) => `${before}${randomCase(p, flips).replace(/ /g, inner)}${after}`);
const nearMiss = fc.constantFrom('-', '**', 'N/A/B', 'n', 'nan', 'NaN', 'INF', 'n/ a', 'un known', '0x10', '1e3', '١٢', '１２', '--1', '?!');
const randomText = fc
  .oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }), fc.stringMatching(/^[-+]?\d{0,6}(\.\d{0,3})?$/))
  .filter(xmlChar);

type Choice = { kind: 'keep' } | { kind: 'text'; text: string };
const choiceFor = (slot: Slot): fc.Arbitrary<Choice> =>
  fc.oneof(
    { weight: slot.value ? 4 : 16, arbitrary: fc.constant<Choice>({ kind: 'keep' }) },
    { weight: 3, arbitrary: placeholder.map((text): Choice => ({ kind: 'text', text })) },
    { weight: 2, arbitrary: fc.oneof(randomText, nearMiss).map((text): Choice => ({ kind: 'text', text })) },
    ...(slot.valid.length ? [{ weight: 1, arbitrary: fc.constantFrom(...slot.valid).map((text): Choice => ({ kind: 'text', text })) }] : []),
  );
const instanceChoices = fc.tuple(...SLOTS.map(choiceFor));

interface Instance {
  xml: string;
  /** Each slot's text as the parser reads it, and the line its element starts on in `xml`. */
  texts: string[];
  lines: number[];
}

function build(choices: readonly Choice[]): Instance {
  const lines = statePopulationXml().split('\n');
  const texts: string[] = [];
  SLOTS.forEach((slot, i) => {
    const line = lines[slot.line - 1];
    const original = new RegExp(`<${slot.tag}>([^<]*)</${slot.tag}>`).exec(line)![1];
    const choice = choices[i];
    texts.push(choice.kind === 'keep' ? original : choice.text);
    if (choice.kind === 'text') lines[slot.line - 1] = line.replace(`>${original}<`, () => `>${escapeXml(choice.text)}<`);
  });
  const xml = lines.join('\n');
  let shift = 0;
  const starts = SLOTS.map((slot, i) => {
    const start = slot.line + shift;
    shift += (texts[i].match(/\n/g) ?? []).length;
    return start;
  });
  return { xml, texts, lines: starts };
}

function elementAt(root: ReturnType<typeof parseXmlDom>, path: Slot['path']): XElement | null {
  const [component, ...rest] = path;
  let element: XElement | null =
    root.documentElement?.localName === component ? root.documentElement : (root.getElementsByTagNameNS(SDC4, component)[0] ?? null);
  for (const name of rest) element = element ? (childElements(element).find((c) => c.localName === name && c.namespaceURI === null) ?? null) : null;
  return element;
}

function outcomeOf(xml: string, schema: CompiledSchema): CorrectionResult | XmlValidationError {
  try {
    return validateWithCorrection(xml, schema);
  } catch (error) {
    if (error instanceof XmlValidationError) return error;
    throw error;
  }
}

/** A corrected instance: one EV per invalid placeholder, every valid value untouched, only tagged values left
 * in error, and a second pass changes nothing. */
function expectCorrected(outcome: CorrectionResult, instance: Instance, invalid: number[], schema: CompiledSchema, optional: boolean): void {
  expect(outcome.status).toBe('valid_with_ev');
  expect(outcome.corrections).toEqual(
    invalid.map((i) => {
      const rule = placeholderRule(instance.texts[i], SLOTS[i].builtin)!;
      return { line: instance.lines[i], ev: rule.ev, element: `sdc4:${rule.element}`, original: instance.texts[i] };
    }),
  );

  const corrected = parseXmlDom(outcome.correctedXml);
  SLOTS.forEach((slot, i) => {
    const element = elementAt(corrected, slot.path);
    if (invalid.includes(i)) {
      const rule = placeholderRule(instance.texts[i], SLOTS[i].builtin)!;
      const component = element?.parentElement ?? elementAt(corrected, [slot.path[0]]);
      const evs = childElements(component!).filter((c) => c.namespaceURI === SDC4);
      expect(evs.map((e) => [e.localName, e.textContent])).toEqual([[rule.element, rule.evName]]);
    }
    if (invalid.includes(i) && optional && slot.tag === 'xdcount-value') expect(element).toBeNull();
    else expect(element && ownText(element)).toBe(instance.texts[i]);
  });
  expect(schema.validateLocated(outcome.correctedXml).map((e) => ({ line: e.line, message: e.message }))).toEqual(outcome.remainingErrors);
  expect(outcome.remainingErrors.every((e) => invalid.some((i) => instance.lines[i] === e.line))).toBe(true);

  const again = validateWithCorrection(outcome.correctedXml, schema);
  expect(again.corrections).toEqual([]);
  expect(again.correctedXml).toBe(outcome.correctedXml);
  expect(again.status).toBe(outcome.remainingErrors.length ? 'valid_with_ev' : 'valid');
}

describe('EV corrector under fuzzing', () => {
  let required: CompiledSchema;
  let optionalCount: CompiledSchema;
  /** Whether a slot's text is valid on its own: the fixture with only that value changed, through libxml2. */
  const validity = new Map<string, boolean>();
  const validAlone = (schema: CompiledSchema, slot: number, text: string): boolean => {
    const key = `${schema === required ? 'r' : 'o'}|${slot}|${text}`;
    let valid = validity.get(key);
    if (valid === undefined) {
      valid = schema.validate(build(SLOTS.map((_, i): Choice => (i === slot ? { kind: 'text', text } : { kind: 'keep' }))).xml).length === 0;
      validity.set(key, valid);
    }
    return valid;
  };

  beforeAll(async () => {
    required = await compileSchema(statePopulationXsd(), offlineResolver());
    const xsd = statePopulationXsd();
    optionalCount = await compileSchema(
      { ...xsd, content: xsd.content.replaceAll('<xsd:element name="xdcount-value">', '<xsd:element name="xdcount-value" minOccurs="0">') },
      offlineResolver(),
    );
  });

  it('corrects exactly the invalid placeholders of data values, leaves every valid value as it was, or refuses with located errors', () => {
    const seen = { valid: 0, corrected: 0, refused: 0 };
    fc.assert(
      fc.property(instanceChoices, fc.boolean(), (choices, optional) => {
        const schema = optional ? optionalCount : required;
        const instance = build(choices);
        const invalid = SLOTS.map((_, i) => i).filter((i) => !validAlone(schema, i, instance.texts[i]));
        const correctable = invalid.every((i) => SLOTS[i].value && placeholderRule(instance.texts[i], SLOTS[i].builtin) !== null);
        const outcome = outcomeOf(instance.xml, schema);

        if (outcome instanceof XmlValidationError) {
          seen.refused++;
          expect(correctable).toBe(false);
          expect(outcome.errors.length).toBeGreaterThan(0);
          const lineCount = instance.xml.split('\n').length;
          for (const e of outcome.errors) {
            expect(e.line).toBeGreaterThanOrEqual(1);
            expect(e.line).toBeLessThanOrEqual(lineCount);
            expect(e.message).toEqual(expect.any(String));
          }
        } else {
          expect(correctable).toBe(true);
          expect(outcome.correctedXml.split('\n')).toHaveLength(instance.xml.split('\n').length);
          if (invalid.length === 0) {
            seen.valid++;
            expect(outcome).toMatchObject({ status: 'valid', correctedXml: instance.xml, corrections: [], remainingErrors: [] });
          } else {
            seen.corrected++;
            expectCorrected(outcome, instance, invalid, schema, optional);
          }
        }
      }),
      { numRuns: 500 },
    );
    expect(seen.valid).toBeGreaterThan(5);
    expect(seen.corrected).toBeGreaterThan(30);
    expect(seen.refused).toBeGreaterThan(30);
  });

  it('refuses text that is not XML with XmlParseError and nothing else', () => {
    const illegal = fc.oneof(
      fc.constantFrom('\u0000', '\u0001', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDC00x'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).filter((s) => !xmlChar(s)),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SLOTS.length - 1 }), illegal, fc.boolean(), (slot, text, optional) => {
        const xml = build(SLOTS.map((_, i): Choice => (i === slot ? { kind: 'text', text } : { kind: 'keep' }))).xml;
        expect(() => validateWithCorrection(xml, optional ? optionalCount : required)).toThrow(XmlParseError);
      }),
      { numRuns: 60 },
    );
  });

  it('maps a placeholder to the same exceptional value whatever its case and spacing', () => {
    fc.assert(
      fc.property(placeholder, (text) => {
        const rule = placeholderRule(text);
        expect(rule).not.toBeNull();
        expect(placeholderRule(text.trim().replace(/\s+/g, ' ').toLowerCase())).toBe(rule);
      }),
      { numRuns: 300 },
    );
  });
});
