import { parseNewUnits, parseUnitsFields } from '../../../src/parsers/drafts-units.parser';
import { refusal } from './refusal';

/** The field a refusal names (`details: {field: [...]}`). */
const fieldOf = (parse: () => unknown) => {
  const r = refusal(parse);
  expect(r.status).toBe(400);
  return Object.keys(r.fields.details as Record<string, unknown>)[0];
};

describe('parseNewUnits', () => {
  it('reads the unit as the label, with newline-joined alternative symbols and semantic links', () => {
    expect(parseNewUnits({ project: 'p123', label: ' kg ', description: '', enums: 'kilogram\n\nkilo', pred_obj: ['4', 2], public: false })).toEqual({
      label: 'kg',
      description: null,
      enums: ['kilogram', 'kilo'],
      predObjIds: [4, 2],
      projectCtId: 'p123',
    });
  });

  it('needs a label; no project means the default project', () => {
    expect(parseNewUnits({ label: 'persons' })).toEqual({ label: 'persons', projectCtId: null });
    expect(fieldOf(() => parseNewUnits({ description: 'Mass' }))).toBe('label');
    expect(fieldOf(() => parseNewUnits({ label: '  ' }))).toBe('label');
  });

  it('names the field of bad input', () => {
    expect(fieldOf(() => parseNewUnits({ label: 'kg', enums: 'kg\nkg' }))).toBe('enums');
    expect(fieldOf(() => parseNewUnits({ label: 'kg', pred_obj: 'one' }))).toBe('pred_obj');
    expect(fieldOf(() => parseNewUnits({ label: 'kg', project: 'not a ct_id!' }))).toBe('project');
    expect(fieldOf(() => parseNewUnits({ label: 'kg', public: 'yes' }))).toBe('public');
    expect(fieldOf(() => parseNewUnits({ label: 'x'.repeat(256) }))).toBe('label');
    expect(fieldOf(() => parseNewUnits(['kg']))).toBe('body');
  });
});

describe('parseUnitsFields', () => {
  it('keeps only the fields a PATCH sends; null clears enums and links', () => {
    expect(parseUnitsFields({ enums: ['g', 'mg'] })).toEqual({ enums: ['g', 'mg'] });
    expect(parseUnitsFields({ description: null, enums: null, pred_obj: null })).toEqual({ description: null, enums: [], predObjIds: [] });
    expect(parseUnitsFields({})).toEqual({});
  });

  it('refuses an empty label on edit', () => {
    expect(fieldOf(() => parseUnitsFields({ label: '' }))).toBe('label');
  });
});
