import {
  parseComponentFields,
  parseDraftPage,
  parseModelFields,
  parseNewCluster,
  parseNewComponent,
  parseNewModel,
} from '../../../src/parsers/drafts.parser';
import { parseNewNamespace, parseNewPredicate, parseNewPredObj } from '../../../src/parsers/drafts-vocabulary.parser';
import { parseEnumDescr, parseEnums, parsePredObjIds } from '../../../src/parsers/drafts-fields';
import { refusal } from './refusal';

/** The field a refusal names (`details: {field: [...]}`). */
const fieldOf = (parse: () => unknown) => {
  const r = refusal(parse);
  expect(r.status).toBe(400);
  return Object.keys(r.fields.details as Record<string, unknown>)[0];
};

describe('parseNewComponent', () => {
  it('reads the body the modeling tool sends for each slug', () => {
    expect(parseNewComponent('xd-quantities', { project: 'p123', label: ' Weight ', description: '', public: false, units: 'kg' })).toEqual({
      dataType: 'XdQuantity',
      label: 'Weight',
      description: null,
      units: 'kg',
      projectCtId: 'p123',
    });
  });

  it('keeps the allowed temporal parts, and refuses a temporal that allows none', () => {
    expect(parseNewComponent('xd-temporals', { label: 'When', allow_date: true, allow_datetime: true, allow_time: false }).details).toEqual({
      allow: ['date', 'datetime'],
    });
    expect(fieldOf(() => parseNewComponent('xd-temporals', { label: 'When', allow_date: false }))).toBe('allow_date');
    expect(fieldOf(() => parseNewComponent('xd-strings', { label: 'Name', allow_date: true }))).toBe('allow_date');
    expect(fieldOf(() => parseNewComponent('xd-temporals', { label: 'When', allow_date: 'yes' }))).toBe('allow_date');
  });

  it.each([
    ['type', 'xd-widgets', { label: 'x' }],
    ['label', 'xd-strings', { label: '  ' }],
    ['label', 'xd-strings', { label: 'x'.repeat(256) }],
    ['project', 'xd-strings', { label: 'x', project: 'not a ct id' }],
    ['public', 'xd-strings', { label: 'x', public: 'no' }],
    ['reference_ranges', 'xd-strings', { label: 'x', reference_ranges: 'r1' }],
    ['body', 'xd-strings', []],
  ])('names %s when it refuses a %s body', (field, slug, body) => {
    expect(fieldOf(() => parseNewComponent(slug, body))).toBe(field);
  });
});

describe('enumerations', () => {
  it('reads newline-joined enums (blank lines dropped) or a list', () => {
    expect(parseEnums('never\r\nformer\n\ncurrent\n')).toEqual(['never', 'former', 'current']);
    expect(parseEnums([' a ', 'b'])).toEqual(['a', 'b']);
  });

  it('refuses duplicates, control characters and non-text', () => {
    expect(refusal(() => parseEnums('a\nb\na')).message).toBe('enums lists "a" twice.');
    expect(fieldOf(() => parseEnums('a\u0001'))).toBe('enums');
    expect(fieldOf(() => parseEnums(3))).toBe('enums');
  });

  it('reads "value: description" lines or an object', () => {
    expect(parseEnumDescr('never: Never smoked\ncurrent:  Smokes now: daily\n')).toEqual({ never: 'Never smoked', current: 'Smokes now: daily' });
    expect(parseEnumDescr({ a: 'Alpha' })).toEqual({ a: 'Alpha' });
    expect(fieldOf(() => parseEnumDescr('no colon here'))).toBe('enum_descr');
  });

  it('PATCH fields: null clears enums, descriptions and links', () => {
    expect(parseComponentFields({ enums: null, enum_descr: null, pred_obj: null }, null)).toEqual({ enums: [], enumDescr: {}, predObjIds: [] });
    expect(parseComponentFields({}, null)).toEqual({});
  });
});

describe('pred_obj', () => {
  it('takes ids as numbers or numeric text, once each', () => {
    expect(parsePredObjIds([3, '4', 3])).toEqual([3, 4]);
  });

  it.each([['x'], [0], [-1], [1.5], ['']])('refuses %p', (id) => {
    expect(fieldOf(() => parsePredObjIds([id]))).toBe('pred_obj[0]');
  });
});

describe('parseNewCluster', () => {
  it('takes children from the type fields, components and clusters, in body order', () => {
    expect(parseNewCluster({ project: 'p1', label: 'Visit', xdstring: ['s1'], clusters: ['c1'], xdquantity: ['q1'], components: ['x1'] })).toEqual({
      label: 'Visit',
      projectCtId: 'p1',
      children: [
        { kind: 'component', ctId: 's1', dataType: 'XdString' },
        { kind: 'cluster', ctId: 'c1' },
        { kind: 'component', ctId: 'q1', dataType: 'XdQuantity' },
        { kind: 'component', ctId: 'x1', dataType: null },
      ],
    });
  });

  it('refuses a child that is not a ct_id', () => {
    expect(fieldOf(() => parseNewCluster({ label: 'Visit', xdcount: [7] }))).toBe('xdcount[0]');
    expect(fieldOf(() => parseNewCluster({ label: 'Visit', clusters: 'c1' }))).toBe('clusters');
  });
});

describe('models', () => {
  it('reads the root cluster and the Dublin Core fields', () => {
    expect(parseNewModel({ title: 'Visit', data: 'c1', dc_subject: 'health', publisher: ' Clinic ', rights: '', language: 'en-GB' })).toEqual({
      title: 'Visit',
      projectCtId: null,
      rootCluster: 'c1',
      dublinCore: { subject: 'health', publisher: 'Clinic', language: 'en-GB' },
    });
  });

  it('takes the root cluster by its numeric id too, as the desktop tool sends it', () => {
    expect(parseNewModel({ title: 'Visit', data: 12 }).rootCluster).toBe(12);
    expect(fieldOf(() => parseNewModel({ title: 'Visit', data: 0 }))).toBe('data');
  });

  it('refuses a model without a root and a language that is not a tag', () => {
    expect(fieldOf(() => parseNewModel({ title: 'Visit' }))).toBe('data');
    expect(fieldOf(() => parseModelFields({ language: 'English please' }))).toBe('language');
  });
});

describe('the semantic vocabulary', () => {
  it('reads a namespace whose uri ends with # or /', () => {
    expect(parseNewNamespace({ abbrev: 'ex', uri: 'https://example.org/vocab#' })).toEqual({ abbrev: 'ex', uri: 'https://example.org/vocab#' });
    expect(fieldOf(() => parseNewNamespace({ abbrev: 'ex', uri: 'https://example.org/vocab' }))).toBe('uri');
    expect(fieldOf(() => parseNewNamespace({ abbrev: 'e x', uri: 'https://example.org/' }))).toBe('abbrev');
    expect(fieldOf(() => parseNewNamespace({ abbrev: 'ex', uri: 'javascript:alert(1)' }))).toBe('uri');
  });

  it('takes a predicate namespace by id (what the scripts send) or by abbreviation', () => {
    expect(parseNewPredicate({ ns_abbrev: 4, class_name: 'exactMatch' })).toEqual({ namespace: 4, className: 'exactMatch' });
    expect(parseNewPredicate({ ns_abbrev: 'skos', class_name: 'exactMatch' })).toEqual({ namespace: 'skos', className: 'exactMatch' });
    expect(fieldOf(() => parseNewPredicate({ ns_abbrev: 'skos', class_name: 'exact match' }))).toBe('class_name');
  });

  it('reads a predicate-object pair', () => {
    expect(parseNewPredObj({ predicate: '2', object_uri: 'https://example.org/c/1', po_name: 'one', project: 'p1' })).toEqual({
      predicateId: 2,
      objectUri: 'https://example.org/c/1',
      poName: 'one',
      projectCtId: 'p1',
    });
    expect(fieldOf(() => parseNewPredObj({ predicate: 2, object_uri: 'not a uri' }))).toBe('object_uri');
  });
});

describe('parseDraftPage', () => {
  it('defaults to 50 and allows up to 200', () => {
    expect(parseDraftPage({})).toEqual({ page: 1, pageSize: 50 });
    expect(parseDraftPage({ page: '2', pageSize: '200' })).toEqual({ page: 2, pageSize: 200 });
    expect(fieldOf(() => parseDraftPage({ pageSize: '201' }))).toBe('page_size');
  });
});

describe('number drafts need units', () => {
  it.each(['xd-counts', 'xd-quantities', 'xd-floats', 'xd-doubles'])('%s without units is refused naming units', (slug) => {
    expect(refusal(() => parseNewComponent(slug, { label: 'n' })).fields.details).toHaveProperty('units');
    expect(refusal(() => parseNewComponent(slug, { label: 'n', units: '  ' })).fields.details).toHaveProperty('units');
    expect(parseNewComponent(slug, { label: 'n', units: 'kg' }).units).toBe('kg');
  });

  it('other drafts take none', () => {
    expect(parseNewComponent('xd-strings', { label: 's' }).units).toBeUndefined();
  });
});
