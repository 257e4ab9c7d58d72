import { DomainError } from '../../../src/lib/errors';
import {
  COMPONENT_PAGE_SIZE,
  filterText,
  parseClusterQuery,
  parseComponentQuery,
  parseDataType,
  parseDmgenComponentQuery,
  parseModelQuery,
  parseOntologyInclude,
  positiveInt,
  STUDIO_MAX_PAGE_SIZE,
} from '../../../src/parsers/catalog.parser';

/** The 400 a parser throws, as the REST body carries it: the message and the field it names. */
function refusal(parse: () => unknown): { status: number; message: string; details: unknown } {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: error.status, message: error.message, details: error.fields.details };
  }
  throw new Error('the parser accepted the input');
}

describe('positiveInt', () => {
  it.each([
    [undefined, 7],
    [null, 7],
    ['', 7],
    ['3', 3],
    [3, 3],
    ['100', 100],
  ])('reads %p as %p', (value, expected) => {
    expect(positiveInt(value, 'page', 7, 100)).toBe(expected);
  });

  it.each([['0'], ['x'], ['1.5'], ['-1'], [0], [2.5], ['101'], [['1', '2']]])('refuses %p naming the field and the range', (value) => {
    expect(refusal(() => positiveInt(value, 'page_size', 20, 100))).toEqual({
      status: 400,
      message: 'page_size must be an integer from 1 to 100.',
      details: { page_size: ['page_size must be an integer from 1 to 100.'] },
    });
  });
});

describe('filterText', () => {
  it.each([
    [undefined, null],
    [null, null],
    ['', null],
    ['   ', null],
    ['  heart rate ', 'heart rate'],
    ['x'.repeat(200), 'x'.repeat(200)],
  ])('reads %p as %p', (value, expected) => {
    expect(filterText(value, 'search')).toBe(expected);
  });

  it.each([
    [['a', 'b'], 'search must be given once, as text.'],
    [5, 'search must be given once, as text.'],
    ['x'.repeat(201), 'search must have at most 200 characters.'],
  ])('refuses %p', (value, message) => {
    expect(refusal(() => filterText(value, 'search'))).toEqual({ status: 400, message, details: { search: [message] } });
  });
});

describe('parseDataType', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['XdCount', 'XdCount'],
    ['XdCountType', 'XdCount'],
    [' XdString ', 'XdString'],
  ])('reads %p as %p', (value, expected) => {
    expect(parseDataType(value)).toBe(expected);
  });

  it.each([['XdNothing'], ['xdcount'], ['Type']])('refuses %p naming every known type', (value) => {
    const refused = refusal(() => parseDataType(value, 'data_type'));
    expect(refused.message).toMatch(/^data_type must be one of XdString, XdCount, .*XdTokenList\.$/);
    expect(refused.details).toEqual({ data_type: [refused.message] });
  });
});

describe('parseComponentQuery', () => {
  it('defaults to the first page of every visible component', () => {
    expect(parseComponentQuery({})).toEqual({
      type: null,
      project: null,
      search: null,
      status: null,
      defaultProjectOnly: false,
      page: 1,
      pageSize: COMPONENT_PAGE_SIZE,
    });
  });

  it('reads every filter', () => {
    expect(
      parseComponentQuery({ type: 'XdQuantityType', project: 'library', search: ' weight ', status: 'retired', page: '2', pageSize: '5' }),
    ).toEqual({
      type: { dataTypes: ['xdquantity'], slot: null },
      project: 'library',
      search: 'weight',
      status: 'retired',
      defaultProjectOnly: false,
      page: 2,
      pageSize: 5,
    });
  });

  it.each([
    ['xdquantity', { dataTypes: ['xdquantity'], slot: null }],
    ['AUDIT', { dataTypes: ['audit', 'audittype'], slot: 'audit' }],
    ['AuditType', { dataTypes: ['audit', 'audittype'], slot: 'audit' }],
    ['provider', { dataTypes: ['party', 'partytype'], slot: 'provider' }],
    ['acs', { dataTypes: [], slot: 'acs' }],
    ['XdNothing', { dataTypes: [], slot: null }],
  ])('reads type %p in any case, an unknown one matching nothing', (type, expected) => {
    expect(parseComponentQuery({ type }).type).toEqual(expected);
  });

  it('reads scope=default_project and refuses any other scope', () => {
    expect(parseComponentQuery({ scope: 'default_project' }).defaultProjectOnly).toBe(true);
    expect(refusal(() => parseComponentQuery({ scope: 'everything' })).details).toEqual({ scope: ['scope must be default_project.'] });
  });

  it.each([
    [{ type: ['a', 'b'] }, 'type'],
    [{ project: ['a', 'b'] }, 'project'],
    [{ search: ['a', 'b'] }, 'search'],
    [{ status: 'gone' }, 'status'],
    [{ page: '0' }, 'page'],
    [{ page: 'x' }, 'page'],
    [{ pageSize: '201' }, 'page_size'],
  ])('refuses %p naming %s', (raw, field) => {
    expect(refusal(() => parseComponentQuery(raw)).details).toHaveProperty(field);
  });

  it('names the first bad field in a fixed order: type, project, search, status, page, page_size', () => {
    const allBad = { type: [], project: [], search: [], status: 'x', page: '0', pageSize: '0' };
    expect(Object.keys(refusal(() => parseComponentQuery(allBad)).details as object)).toEqual(['type']);
    expect(Object.keys(refusal(() => parseComponentQuery({ ...allBad, type: undefined })).details as object)).toEqual(['project']);
    expect(Object.keys(refusal(() => parseComponentQuery({ status: 'x', page: '0' })).details as object)).toEqual(['status']);
    expect(refusal(() => parseComponentQuery({ status: 'x' })).message).toBe('status must be draft, published or retired.');
  });
});

describe('parseClusterQuery', () => {
  it('reads project, search and the page', () => {
    expect(parseClusterQuery({ project: 'library', search: '', page: 3, pageSize: 100 })).toEqual({
      project: 'library',
      search: null,
      defaultProjectOnly: false,
      page: 3,
      pageSize: 100,
    });
  });

  it.each([
    [{ project: ['a', 'b'] }, 'project'],
    [{ search: 'x'.repeat(201) }, 'search'],
    [{ pageSize: 0 }, 'page_size'],
  ])('refuses %p naming %s', (raw, field) => {
    expect(refusal(() => parseClusterQuery(raw)).details).toHaveProperty(field);
  });
});

describe('parseModelQuery', () => {
  it.each([
    [{}, null],
    [{ search: '  ' }, null],
    [{ search: ' StatePop ' }, 'StatePop'],
  ])('reads %p', (raw, search) => {
    expect(parseModelQuery(raw)).toEqual({ search, project: null, defaultProjectOnly: false });
  });

  it('refuses a repeated search', () => {
    expect(refusal(() => parseModelQuery({ search: ['a', 'b'] })).details).toEqual({ search: ['search must be given once, as text.'] });
  });
});

describe('parseOntologyInclude', () => {
  it.each([
    [undefined, false],
    ['bfo', true],
  ])('reads %p as %p', (value, withBfo) => {
    expect(parseOntologyInclude(value)).toBe(withBfo);
  });

  it.each([['BFO'], [''], [['bfo', 'bfo']]])('refuses %p with 400 echoing the value', (value) => {
    let caught: unknown;
    try {
      parseOntologyInclude(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 400, code: 'invalid_request', fields: { include: value } });
  });
});

describe('parseDmgenComponentQuery (the studio list)', () => {
  it('reads published=true|false as status published|draft, and refuses a contradiction or another word', () => {
    expect(parseDmgenComponentQuery({ published: 'false' }).status).toBe('draft');
    expect(parseDmgenComponentQuery({ published: 'True' }).status).toBe('published');
    expect(parseDmgenComponentQuery({ published: 'true', status: 'published' }).status).toBe('published');
    expect(parseDmgenComponentQuery({}).status).toBeNull();
    expect(refusal(() => parseDmgenComponentQuery({ published: 'false', status: 'published' })).details).toHaveProperty('published');
    expect(refusal(() => parseDmgenComponentQuery({ published: 'maybe' })).details).toHaveProperty('published');
  });

  it('accepts page_size up to the one studio maximum, 200', () => {
    expect(STUDIO_MAX_PAGE_SIZE).toBe(200);
    expect(parseDmgenComponentQuery({ pageSize: '200' }).pageSize).toBe(200);
    expect(refusal(() => parseDmgenComponentQuery({ pageSize: '201' })).message).toBe('page_size must be an integer from 1 to 200.');
  });
});
