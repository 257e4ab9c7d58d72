import { validateWithCorrection } from '../../../src/xml/ev';
import { compileSchema, type CompiledSchema } from '../../../src/xml/schema';
import { XmlValidationError } from '../../../src/xml/xml-errors';
import {
  EV_FAMILIES_CT_ID,
  evFamiliesXml,
  evFamiliesXsd,
  FAMILY_NAMES,
  SMUGGLINGS,
  smuggled,
  valueLine,
  withValue,
  type Family,
} from '../../support/ev-families';
import { offlineResolver } from './fixtures';

/** The EV rule on one generated model with a component of each datatype family: an ExceptionalValue excuses
 * only datatype errors on its component's value element, and the placeholder table's additions (`-`, an empty
 * or blank number or date) are corrected into sdc4:NI. */

let schema: CompiledSchema;
beforeAll(async () => {
  schema = await compileSchema({ name: `dm-${EV_FAMILIES_CT_ID}.xsd`, content: evFamiliesXsd() }, offlineResolver());
});

const refusal = (xml: string): XmlValidationError | null => {
  try {
    validateWithCorrection(xml, schema);
  } catch (error) {
    if (error instanceof XmlValidationError) return error;
    throw error;
  }
  return null;
};

it('the generated example instance is valid as it is', () => {
  expect(schema.validate(evFamiliesXml())).toEqual([]);
});

describe.each(FAMILY_NAMES)('an EV on the %s component', (family) => {
  it.each(SMUGGLINGS)('does not excuse an instance with a(n) %s', (shape) => {
    const xml = smuggled(family, shape);
    const errors = schema.validate(xml);
    expect(errors.length).toBeGreaterThan(0);

    const refused = refusal(xml);

    expect(refused).toBeInstanceOf(XmlValidationError);
    expect(refused!.errors).toEqual(errors.map(({ line, message }) => ({ line, message })));
  });
});

describe('an EV on the count component does not excuse the rest of the component either', () => {
  const NI = '<sdc4:NI><ev-name>No Information</ev-name></sdc4:NI>';
  const withNi = (xml: string) => xml.replace('<label>Age</label>', `<label>Age</label>${NI}`);

  it.each([
    ['wrong units', (xml: string) => withNi(xml).replace('<xdstring-value>people</xdstring-value>', '<xdstring-value>persons</xdstring-value>')],
    ['an EV out of place', (xml: string) => xml.replace('<xdcount-value>42</xdcount-value>', `<xdcount-value>42</xdcount-value>${NI}`)],
    [
      'a second value',
      (xml: string) => withNi(xml).replace('<xdcount-value>42</xdcount-value>', '<xdcount-value>N/A</xdcount-value><xdcount-value>7</xdcount-value>'),
    ],
  ])('%s stays a structural error', (_shape, edit) => {
    const xml = edit(evFamiliesXml());
    expect(xml).not.toBe(evFamiliesXml());
    expect(schema.validate(xml).length).toBeGreaterThan(0);

    expect(refusal(xml)).toBeInstanceOf(XmlValidationError);
  });

  it('while the value it stands for may stay beside it, reported, not refused', () => {
    const xml = withNi(evFamiliesXml()).replace('<xdcount-value>42</xdcount-value>', '<xdcount-value>forty-two</xdcount-value>');

    const result = validateWithCorrection(xml, schema);

    expect(result).toMatchObject({ status: 'valid_with_ev', corrections: [] });
    expect(result.remainingErrors.map((e) => e.line)).toEqual([valueLine('count')]);
  });
});

describe('placeholders corrected into sdc4:NI', () => {
  const corpus: Array<[Family, string]> = [
    ['count', '-'],
    ['count', ''],
    ['count', '   '],
    ['quantity', '-'],
    ['quantity', ''],
    ['quantity', ' \t '],
    ['temporal', '-'],
    ['temporal', ''],
    ['temporal', '  '],
    ['boolean', '-'],
  ];

  it.each(corpus)('%s %j: valid_with_ev, and the corrected XML re-validates with only that value reported', (family, text) => {
    const xml = withValue(family, text);
    const line = valueLine(family);

    const result = validateWithCorrection(xml, schema);

    expect(result.status).toBe('valid_with_ev');
    expect(result.corrections).toEqual([{ line, ev: 'EV_NULL', element: 'sdc4:NI', original: text }]);
    expect(result.correctedXml).toContain('<sdc4:NI><ev-name>No Information</ev-name></sdc4:NI>');
    expect(result.remainingErrors.map((e) => e.line)).toEqual([line]);
    const again = validateWithCorrection(result.correctedXml, schema);
    expect(again).toMatchObject({ status: 'valid_with_ev', corrections: [], correctedXml: result.correctedXml });
    expect(again.remainingErrors).toEqual(result.remainingErrors);
    expect(schema.validate(result.correctedXml).map((e) => e.line)).toEqual([line]);
  });

  it.each([
    ['string', '-'],
    ['string', ''],
    ['string', '  '],
  ] as Array<[Family, string]>)('%s %j is a valid string and stays as it is', (family, text) => {
    const xml = withValue(family, text);

    expect(validateWithCorrection(xml, schema)).toMatchObject({ status: 'valid', correctedXml: xml, corrections: [] });
  });

  it('an empty boolean is not a placeholder: refused', () => {
    expect(refusal(withValue('boolean', ''))).toBeInstanceOf(XmlValidationError);
  });
});
