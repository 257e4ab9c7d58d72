import { MalformedRequest, estimateId, parseAssemblyRequest } from '../../../src/parsers/assembly.parser';
import { SOURCE_DATA_TYPES } from '../../../src/parsers/assembly-component.parser';

/** What real clients put in an assembly body (clients.md): source-type words, enumerations, null contextual slots. */

const body = (component: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  title: 'Survey',
  data: { label: 'Answers', components: [component] },
  ...extra,
});

function details(input: unknown): Record<string, string[]> | null {
  try {
    parseAssemblyRequest(input);
    return null;
  } catch (error) {
    if (error instanceof MalformedRequest) return error.details;
    throw error;
  }
}

const mintOf = (input: unknown) => parseAssemblyRequest(input).root.components[0];

describe('data_type source words', () => {
  it.each([
    ['string', 'XdString'],
    ['integer', 'XdCount'],
    ['decimal', 'XdQuantity'],
    ['date', 'XdTemporal'],
    ['datetime', 'XdTemporal'],
    ['boolean', 'XdBoolean'],
    ['Integer', 'XdCount'],
  ])('maps %s to %s', (word, type) => {
    expect(mintOf(body({ label: 'Q', data_type: word }))).toMatchObject({ kind: 'mint', dataType: type });
  });

  it('documents exactly the six words of the table', () => {
    expect(Object.keys(SOURCE_DATA_TYPES)).toEqual(['string', 'integer', 'decimal', 'date', 'datetime', 'boolean']);
  });

  it.each(['float', 'varchar', 'toString', '__proto__', 42, ''])('refuses %p, naming the field', (word) => {
    const problems = details(body({ label: 'Q', data_type: word }));
    expect(problems).toHaveProperty(['data.components[0].data_type']);
    expect(problems?.['data.components[0].data_type'][0]).toMatch(/source type: string, integer, decimal, date, datetime, boolean/);
  });

  it('keeps SDC4 type names as they are', () => {
    expect(mintOf(body({ label: 'Q', data_type: 'XdDouble' }))).toMatchObject({ dataType: 'XdDouble', enumeration: null });
  });
});

describe('enumeration on a mint reference', () => {
  const codes = { '1': 'Acceptable', '2': 'Questionable', '9': 'Not assessed' };

  it('becomes the ordered codes with their labels, on an XdString', () => {
    expect(mintOf(body({ label: 'Quality', data_type: 'string', enumeration: codes, description: 'Flag' }))).toEqual({
      path: 'data.components[0]',
      kind: 'mint',
      label: 'Quality',
      dataType: 'XdString',
      description: 'Flag',
      units: null,
      enumeration: [
        { code: '1', label: 'Acceptable' },
        { code: '2', label: 'Questionable' },
        { code: '9', label: 'Not assessed' },
      ],
    });
  });

  it('turns a source word into an XdString (the codes are the values as the source holds them)', () => {
    expect(mintOf(body({ label: 'Quality', data_type: 'integer', enumeration: codes }))).toMatchObject({ dataType: 'XdString' });
  });

  it('keeps an XdToken an XdToken', () => {
    expect(mintOf(body({ label: 'Code', data_type: 'XdToken', enumeration: { A: 'Alpha' } }))).toMatchObject({ dataType: 'XdToken' });
  });

  it.each([null, {}])('treats %p as no enumeration', (enumeration) => {
    expect(mintOf(body({ label: 'Q', data_type: 'XdString', enumeration }))).toMatchObject({ enumeration: null });
  });

  it.each([
    ['an enumerated XdQuantity', { label: 'Q', data_type: 'XdQuantity', enumeration: codes }, 'data.components[0].enumeration'],
    ['a list instead of an object', { label: 'Q', data_type: 'string', enumeration: ['1', '2'] }, 'data.components[0].enumeration'],
    ['a blank code', { label: 'Q', data_type: 'string', enumeration: { ' ': 'Blank' } }, 'data.components[0].enumeration'],
    ['a label that is not text', { label: 'Q', data_type: 'string', enumeration: { '1': 1 } }, 'data.components[0].enumeration.1'],
    [
      'more than 500 codes',
      { label: 'Q', data_type: 'string', enumeration: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`c${i}`, 'x'])) },
      'data.components[0].enumeration',
    ],
  ])('refuses %s, naming the field', (_name, component, path) => {
    expect(details(body(component))).toHaveProperty([path]);
  });

  it('is part of the estimate id, so a changed code list makes an estimate stale', () => {
    const plain = parseAssemblyRequest(body({ label: 'Q', data_type: 'XdString' }));
    const coded = parseAssemblyRequest(body({ label: 'Q', data_type: 'XdString', enumeration: codes }));
    const recoded = parseAssemblyRequest(body({ label: 'Q', data_type: 'XdString', enumeration: { ...codes, '3': 'Bad' } }));
    expect(new Set([estimateId(plain), estimateId(coded), estimateId(recoded)]).size).toBe(3);
  });
});

describe('contextual slots', () => {
  it('reads null slots as unused and keeps the others', () => {
    const request = parseAssemblyRequest(
      body({ label: 'Q', data_type: 'XdString' }, { contextual: { audit: { ct_id: 'abc' }, party: null, subject: null, acs: null } }),
    );
    expect(request.contextual).toEqual([{ name: 'audit', path: 'contextual.audit', ctId: 'abc' }]);
  });

  it('still refuses an unknown slot, even when null', () => {
    expect(details(body({ label: 'Q', data_type: 'XdString' }, { contextual: { weather: null } }))).toHaveProperty(['contextual.weather']);
  });
});
