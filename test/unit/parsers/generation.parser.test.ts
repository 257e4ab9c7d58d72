import { DomainError } from '../../../src/lib/errors';
import { parseAppProfile, parseAsyncFlag, parseGenerationRequest } from '../../../src/parsers/generation.parser';

describe('parseAppProfile', () => {
  it.each([[undefined], [null], ['']])('reads %p as os', (value) => {
    expect(parseAppProfile(value)).toBe('os');
  });

  it.each(['os', 'enterprise'])('accepts %s', (value) => {
    expect(parseAppProfile(value)).toBe(value);
  });

  it.each([['OS'], ['community'], [1], [['os']]])('refuses %p with the contract 400', (value) => {
    let refused: unknown;
    try {
      parseAppProfile(value);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'profile must be os or enterprise.',
      fields: { details: { profile: ['os or enterprise'] } },
    });
  });
});

describe('parseGenerationRequest', () => {
  it('gives a package the os profile whatever the request names', () => {
    expect(parseGenerationRequest('generate_package', 'dm1', 'nonsense')).toEqual({ kind: 'generate_package', dmCtId: 'dm1', profile: 'os' });
  });

  it('reads an application profile', () => {
    expect(parseGenerationRequest('generate_app', 'dm1', 'enterprise')).toEqual({ kind: 'generate_app', dmCtId: 'dm1', profile: 'enterprise' });
    expect(() => parseGenerationRequest('generate_app', 'dm1', 'nonsense')).toThrow('profile must be os or enterprise.');
  });
});

describe('parseAsyncFlag', () => {
  it.each([
    ['1', undefined, true],
    ['true', undefined, true],
    [undefined, true, true],
    [undefined, undefined, false],
    ['0', false, false],
    ['yes', 'true', false],
  ])('query %p, body %p: %p', (query, body, expected) => {
    expect(parseAsyncFlag(query, body)).toBe(expected);
  });
});
