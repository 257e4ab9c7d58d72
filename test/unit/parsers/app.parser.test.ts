import { AppError } from '../../../src/lib/app-api-errors';
import { parseBooleanParameter, parseNewAppKey, parseSparqlQuery, parseXmlContent, rawRdfFilename } from '../../../src/parsers/app.parser';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, body: error.body() };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('parseNewAppKey', () => {
  it('trims the organisation and the e-mail address', () => {
    expect(parseNewAppKey({ organization: '  Acme ', contactEmail: ' a@acme.test ' })).toEqual({ organization: 'Acme', contactEmail: 'a@acme.test' });
  });

  it.each([
    [{ organization: '', contactEmail: 'a@acme.test' }, 'organization', 'organization is required (at most 200 characters).'],
    [{ organization: 'x'.repeat(201), contactEmail: 'a@acme.test' }, 'organization', 'organization is required (at most 200 characters).'],
    [{ organization: 42, contactEmail: 'a@acme.test' }, 'organization', 'organization is required (at most 200 characters).'],
    [{ organization: 'Acme', contactEmail: 'not-an-address' }, 'contact_email', 'contact_email must be an e-mail address.'],
    [{ organization: 'Acme', contactEmail: `${'a'.repeat(250)}@x.io` }, 'contact_email', 'contact_email must be an e-mail address.'],
    [{ organization: 'Acme', contactEmail: undefined }, 'contact_email', 'contact_email must be an e-mail address.'],
  ])('refuses %j with VALIDATION_ERROR on its field', (input, field, message) => {
    expect(refusal(() => parseNewAppKey(input))).toEqual({
      status: 400,
      body: { success: false, error: { code: 'VALIDATION_ERROR', message, details: { field } } },
    });
  });
});

describe('parseXmlContent', () => {
  it('keeps a string as it is', () => {
    expect(parseXmlContent(' <x/> ')).toBe(' <x/> ');
  });

  it.each([undefined, null, ''])('answers XML_REQUIRED for %p', (value) => {
    expect(refusal(() => parseXmlContent(value)).body).toEqual({
      success: false,
      error: { code: 'XML_REQUIRED', message: 'No XML provided: send a multipart "file" or a JSON body with "xml_content".', details: {} },
    });
  });

  it('answers INVALID_PARAMETER for a value that is not a string', () => {
    expect(refusal(() => parseXmlContent({ xml: 1 }))).toEqual({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'INVALID_PARAMETER',
          message: 'xml_content must be a string holding the XML document.',
          details: { parameter: 'xml_content' },
        },
      },
    });
  });
});

describe('parseBooleanParameter', () => {
  it.each([
    [[undefined, 'yes'], true],
    [['off', 'true'], false],
    [[' TRUE '], true],
    [['0'], false],
    [[false], false],
    [['', null, undefined], true],
  ])('reads the first given value of %j as %p', (values, expected) => {
    expect(parseBooleanParameter('sync_triplestore', values, true)).toBe(expected);
  });

  it('refuses anything else with INVALID_PARAMETER naming the parameter', () => {
    expect(refusal(() => parseBooleanParameter('sync_triplestore', ['maybe'], true))).toEqual({
      status: 400,
      body: {
        success: false,
        error: { code: 'INVALID_PARAMETER', message: 'sync_triplestore must be true or false.', details: { parameter: 'sync_triplestore' } },
      },
    });
  });
});

describe('parseSparqlQuery', () => {
  it('keeps a query', () => {
    expect(parseSparqlQuery('ASK {}')).toBe('ASK {}');
  });

  it.each([undefined, '   ', ['ASK {}']])('refuses a missing or blank query %p', (value) => {
    expect(refusal(() => parseSparqlQuery(value)).body).toEqual({
      success: false,
      error: {
        code: 'INVALID_QUERY',
        message: 'Send a SPARQL query in "query" (GET or form POST) or as an application/sparql-query body.',
        details: {},
      },
    });
  });

  it('refuses a query over 100,000 characters', () => {
    expect(refusal(() => parseSparqlQuery(`ASK {}${' '.repeat(100_000)}`)).body).toMatchObject({
      error: { message: 'The query is longer than 100000 characters.' },
    });
  });
});

describe('rawRdfFilename', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('takes ?filename= as given, else dm-<ct_id> of the first model the graph names, with the media type’s extension', () => {
    expect(rawRdfFilename('dm-abc_shacl.ttl', bytes(''), '.ttl')).toBe('dm-abc_shacl.ttl');
    expect(rawRdfFilename(undefined, bytes('sdc4:dm-k2x9 a sdc4-meta:DataModel .'), '.ttl')).toBe('dm-k2x9.ttl');
    expect(rawRdfFilename('', bytes('<rdf:Description rdf:about="https://semanticdatacharter.com/ns/sdc4/dm-q7">'), '.rdf')).toBe('dm-q7.rdf');
  });

  it('refuses a graph that names no model, and a repeated parameter', () => {
    expect(() => rawRdfFilename(undefined, bytes('<a> <b> <c> .'), '.ttl')).toThrow(AppError);
    expect(() => rawRdfFilename(['a', 'b'], bytes(''), '.ttl')).toThrow(AppError);
  });
});
