import { parsePackageId, parseSignQuery, parseValidateQuery, requireXmlContentType } from '../../../src/parsers/vaas.parser';
import { refusal } from './refusal';

describe('the VaaS query', () => {
  it.each<[Record<string, unknown>, unknown]>([
    [{}, { mode: 'strict', package: false, sign: false }],
    [
      { mode: 'recover', package: 'true' },
      { mode: 'recover', package: true, sign: false },
    ],
    [
      { mode: 'report', package: 'false' },
      { mode: 'strict', package: false, sign: false },
    ],
    [
      { mode: 'STRICT', package: '1' },
      { mode: 'strict', package: true, sign: false },
    ],
  ])('of validate %j is %j', (query, expected) => {
    expect(parseValidateQuery(query)).toEqual(expected);
  });

  it.each<[Record<string, unknown>, unknown]>([
    [{}, { mode: 'recover', package: false, sign: true }],
    [
      { recover: 'false', package: 'true' },
      { mode: 'strict', package: true, sign: true },
    ],
  ])('of sign %j is %j', (query, expected) => {
    expect(parseSignQuery(query)).toEqual(expected);
  });

  it('refuses an unknown mode, a repeated mode and a flag that is not a boolean', () => {
    expect(refusal(() => parseValidateQuery({ mode: 'lenient' }))).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'mode must be strict, recover or report.',
      fields: { details: { mode: ['mode must be strict, recover or report.'] }, mode: 'lenient' },
    });
    expect(refusal(() => parseValidateQuery({ mode: ['strict', 'recover'] })).status).toBe(400);
    expect(refusal(() => parseSignQuery({ recover: 'yes' })).message).toBe('recover must be true or false.');
  });
});

describe('the VaaS body and package id', () => {
  it('takes application/xml, text/xml and +xml types, with parameters', () => {
    for (const type of ['application/xml', 'text/xml; charset=utf-8', 'application/sdc4+xml', 'Application/XML']) {
      expect(() => requireXmlContentType(type)).not.toThrow();
    }
  });

  it('refuses anything else with 415', () => {
    expect(refusal(() => requireXmlContentType('application/json'))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(refusal(() => requireXmlContentType(undefined))).toMatchObject({ status: 415, fields: { content_type: null } });
  });

  it('answers 404 for a package id that cannot be one', () => {
    expect(parsePackageId('tz4a98xxat96iws9zmbrgj3a')).toBe('tz4a98xxat96iws9zmbrgj3a');
    expect(refusal(() => parsePackageId('../etc')).status).toBe(404);
  });
});
