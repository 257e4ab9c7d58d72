import { EV_TABLE, placeholderRule, validateWithCorrection } from '../../../src/xml/ev';
import { parseXmlDom } from '../../../src/xml/safe-parse';
import { compileSchema, type CompiledSchema } from '../../../src/xml/schema';
import { errorsByLine, XmlValidationError } from '../../../src/xml/xml-errors';
import { offlineResolver, statePopulationNaXml, statePopulationXml, statePopulationXsd } from './fixtures';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';
const ADULT_POPULATION = 'ms-ac79bjkqi8906qzjujpwtlsy';

function component(xml: string, name: string) {
  const found = parseXmlDom(xml).getElementsByTagNameNS(SDC4, name)[0];
  return found.children.map((c) => ({ name: c.localName, namespace: c.namespaceURI, text: c.children.length ? null : c.textContent }));
}

describe('EV correction', () => {
  let schema: CompiledSchema;
  let optionalCountSchema: CompiledSchema;

  beforeAll(async () => {
    schema = await compileSchema(statePopulationXsd(), offlineResolver());
    const xsd = statePopulationXsd();
    optionalCountSchema = await compileSchema(
      { ...xsd, content: xsd.content.replaceAll('<xsd:element name="xdcount-value">', '<xsd:element name="xdcount-value" minOccurs="0">') },
      offlineResolver(),
    );
  });

  it('leaves a valid instance untouched', () => {
    const xml = statePopulationXml();

    expect(validateWithCorrection(xml, schema)).toEqual({
      status: 'valid',
      correctedXml: xml,
      correctedDocument: null,
      corrections: [],
      remainingErrors: [],
    });
  });

  it('tags N/A in a required count with sdc4:NI after the label and keeps the value beside it', () => {
    const result = validateWithCorrection(statePopulationNaXml(), schema);

    expect(result.status).toBe('valid_with_ev');
    expect(result.corrections).toEqual([{ line: 25, ev: 'EV_NULL', element: 'sdc4:NI', original: 'N/A' }]);
    expect(component(result.correctedXml, ADULT_POPULATION)).toEqual([
      { name: 'label', namespace: null, text: 'Adult Population' },
      { name: 'NI', namespace: SDC4, text: null },
      { name: 'xdcount-value', namespace: null, text: 'N/A' },
      { name: 'xdcount-units', namespace: null, text: null },
    ]);
    expect(result.correctedXml).toContain('<sdc4:NI><ev-name>No Information</ev-name></sdc4:NI>');
    expect(result.remainingErrors).toEqual([{ line: 25, message: "Element 'xdcount-value': 'N/A' is not a valid value of the local atomic type." }]);
    expect(errorsByLine(result.remainingErrors)).toEqual({
      'line-25': "Element 'xdcount-value': 'N/A' is not a valid value of the local atomic type.",
    });
  });

  it('re-validates the corrected instance with only tagged errors and nothing more to correct', () => {
    const corrected = validateWithCorrection(statePopulationNaXml(), schema).correctedXml;

    expect(corrected.split('\n')).toHaveLength(statePopulationNaXml().split('\n').length);
    const again = validateWithCorrection(corrected, schema);
    expect(again.status).toBe('valid_with_ev');
    expect(again.corrections).toEqual([]);
    expect(again.correctedXml).toBe(corrected);
  });

  it('removes the placeholder where the schema lets the value be absent, leaving a fully valid instance', () => {
    const result = validateWithCorrection(statePopulationNaXml(), optionalCountSchema);

    expect(component(result.correctedXml, ADULT_POPULATION).map((c) => c.name)).toEqual(['label', 'NI', 'xdcount-units']);
    expect(result.remainingErrors).toEqual([]);
    expect(optionalCountSchema.validate(result.correctedXml)).toEqual([]);
  });

  it('maps each placeholder kind to its own ExceptionalValue element', () => {
    const xml = statePopulationXml()
      .replace('<xdcount-value>23</xdcount-value>', '<xdcount-value> Not Recorded </xdcount-value>')
      .replace('<xdcount-value>86</xdcount-value>', '<xdcount-value>***</xdcount-value>')
      .replace('<xdquantity-value>0.0</xdquantity-value>', '<xdquantity-value>---</xdquantity-value>');

    const result = validateWithCorrection(xml, schema);

    expect(result.corrections.map((c) => [c.line, c.ev, c.element])).toEqual([
      [25, 'EV_NOT_RECORDED', 'sdc4:NAV'],
      [35, 'EV_MASKED', 'sdc4:MSK'],
      [45, 'EV_NULL', 'sdc4:NI'],
    ]);
    expect(result.correctedXml).toContain('<sdc4:NAV><ev-name>Not Available</ev-name></sdc4:NAV>');
    expect(result.correctedXml).toContain('<sdc4:MSK><ev-name>Masked</ev-name></sdc4:MSK>');
  });

  it('corrects an instance written with SDC4 as its default namespace', () => {
    const defaultNamespaced = statePopulationNaXml()
      .replace('xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"', 'xmlns="https://semanticdatacharter.com/ns/sdc4/"')
      .replace(/<(\/?)sdc4:/g, '<$1')
      .replace(/<(?!dm-its7j6bvrb9n2fxdcxmoemod|ms-)([A-Za-z_][\w.-]*)([\s>])/g, '<$1 xmlns=""$2');
    expect(schema.validate(defaultNamespaced).map((e) => e.line)).toEqual([25]);

    const result = validateWithCorrection(defaultNamespaced, schema);

    expect(result.corrections).toEqual([{ line: 25, ev: 'EV_NULL', element: 'sdc4:NI', original: 'N/A' }]);
    expect(result.correctedXml).toContain('<label xmlns="">Adult Population</label><NI><ev-name xmlns="">No Information</ev-name></NI>');
    expect(component(result.correctedXml, ADULT_POPULATION).map((c) => [c.name, c.namespace])).toEqual([
      ['label', null],
      ['NI', SDC4],
      ['xdcount-value', null],
      ['xdcount-units', null],
    ]);
  });

  it('refuses with every error and its line when a value is invalid but not a placeholder', () => {
    const xml = statePopulationNaXml().replace('<xdquantity-value>0.0</xdquantity-value>', '<xdquantity-value>lots</xdquantity-value>');

    const error = (() => {
      try {
        validateWithCorrection(xml, schema);
      } catch (e) {
        return e;
      }
      return null;
    })();

    expect(error).toBeInstanceOf(XmlValidationError);
    expect((error as XmlValidationError).errors.map((e) => e.line)).toEqual([25, 45]);
  });

  it('does not treat a placeholder outside a data component as correctable', () => {
    const xml = statePopulationXml().replace(
      '<creation_timestamp>2025-12-11T12:11:52.027555</creation_timestamp>',
      '<creation_timestamp>unknown</creation_timestamp>',
    );

    expect(() => validateWithCorrection(xml, schema)).toThrow(XmlValidationError);
  });
});

describe('EV_TABLE', () => {
  it.each([
    ['N/A', 'EV_NULL', 'NI', 'No Information'],
    ['  na ', 'EV_NULL', 'NI', 'No Information'],
    ['n.a.', 'EV_NULL', 'NI', 'No Information'],
    ['NULL', 'EV_NULL', 'NI', 'No Information'],
    ['nil', 'EV_NULL', 'NI', 'No Information'],
    ['None', 'EV_NULL', 'NI', 'No Information'],
    ['-', 'EV_NULL', 'NI', 'No Information'],
    [' - ', 'EV_NULL', 'NI', 'No Information'],
    ['--', 'EV_NULL', 'NI', 'No Information'],
    ['-----', 'EV_NULL', 'NI', 'No Information'],
    ['Unknown', 'EV_UNKNOWN', 'UNK', 'Unknown'],
    ['UNK', 'EV_UNKNOWN', 'UNK', 'Unknown'],
    ['?', 'EV_UNKNOWN', 'UNK', 'Unknown'],
    ['not  recorded', 'EV_NOT_RECORDED', 'NAV', 'Not Available'],
    ['Not available', 'EV_NOT_RECORDED', 'NAV', 'Not Available'],
    ['MASKED', 'EV_MASKED', 'MSK', 'Masked'],
    ['redacted', 'EV_MASKED', 'MSK', 'Masked'],
    ['***', 'EV_MASKED', 'MSK', 'Masked'],
    ['Not Applicable', 'EV_NOT_APPLICABLE', 'NA', 'Not Applicable'],
  ])('maps %j to %s (sdc4:%s "%s")', (text, ev, element, evName) => {
    expect(placeholderRule(text)).toMatchObject({ ev, element, evName });
  });

  it.each(['0', 'n', 'abc', 'N/A/B', '**', '-1', '--5'])('does not treat %j as a placeholder', (text) => {
    expect(placeholderRule(text)).toBeNull();
  });

  it.each(['integer', 'decimal', 'double', 'date', 'dateTime', 'gYear', 'duration'])('maps an empty or blank %s to sdc4:NI', (builtin) => {
    expect(placeholderRule('', builtin)).toMatchObject({ ev: 'EV_NULL', element: 'NI', evName: 'No Information' });
    expect(placeholderRule(' \n\t ', builtin)).toMatchObject({ ev: 'EV_NULL', element: 'NI' });
  });

  it.each([['string'], ['token'], ['boolean'], [null]])('does not treat an empty or blank value of type %s as a placeholder', (builtin) => {
    expect(placeholderRule('', builtin)).toBeNull();
    expect(placeholderRule('  ', builtin)).toBeNull();
  });

  it('covers every exceptional value of the contract once per SDC4 element', () => {
    const pairs = new Set(EV_TABLE.map((r) => `${r.ev}:${r.element}`));
    expect([...pairs].sort()).toEqual(['EV_MASKED:MSK', 'EV_NOT_APPLICABLE:NA', 'EV_NOT_RECORDED:NAV', 'EV_NULL:NI', 'EV_UNKNOWN:UNK']);
  });
});

describe('errorsByLine', () => {
  it('joins several messages on one line and keeps every line', () => {
    expect(
      errorsByLine([
        { line: 7, message: 'second.' },
        { line: 3, message: 'one.' },
        { line: 7, message: 'third.' },
      ]),
    ).toEqual({ 'line-3': 'one.', 'line-7': 'second. third.' });
    expect(errorsByLine([])).toBeNull();
  });
});
