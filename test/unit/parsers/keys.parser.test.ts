import { parseCreateKey, parseCreateKeyFields } from '../../../src/parsers/keys.parser';
import { refusal } from './refusal';

describe('parseCreateKey', () => {
  it('defaults to every scope, no spend limit and no expiry, and trims the name', () => {
    expect(parseCreateKey({ name: '  laptop ' })).toEqual({
      name: 'laptop',
      scopes: ['read', 'build', 'spend'],
      spendLimitCredits: null,
      expiresInDays: null,
    });
  });

  it('treats null like an absent field', () => {
    expect(parseCreateKey({ name: 'a', scopes: null, spend_limit_credits: null, expires_in_days: null })).toEqual({
      name: 'a',
      scopes: ['read', 'build', 'spend'],
      spendLimitCredits: null,
      expiresInDays: null,
    });
  });

  it('always keeps read and orders the scopes read, build, spend', () => {
    expect(parseCreateKey({ name: 'ci', scopes: ['spend'] }).scopes).toEqual(['read', 'spend']);
    expect(parseCreateKey({ name: 'ci', scopes: ['spend', 'build', 'spend'] }).scopes).toEqual(['read', 'build', 'spend']);
    expect(parseCreateKey({ name: 'ci', scopes: [] }).scopes).toEqual(['read']);
  });

  it('accepts the bounds: 1 and 3660 days, a zero limit, a 100-character name', () => {
    expect(parseCreateKey({ name: 'a', expires_in_days: 1 }).expiresInDays).toBe(1);
    expect(parseCreateKey({ name: 'b', expires_in_days: 3660, spend_limit_credits: 0 })).toMatchObject({ expiresInDays: 3660, spendLimitCredits: 0 });
    expect(parseCreateKey({ name: 'n'.repeat(100) }).name).toHaveLength(100);
  });

  it.each([
    [{}, 'name', 'name is required.'],
    [{ name: '   ' }, 'name', 'name is required.'],
    [{ name: 7 }, 'name', 'name is required.'],
    [{ name: 'n'.repeat(101) }, 'name', 'name must have at most 100 characters.'],
    [{ name: 'a', scopes: ['admin'] }, 'scopes', 'scopes must be an array of read, build and spend.'],
    [{ name: 'a', scopes: 'read' }, 'scopes', 'scopes must be an array of read, build and spend.'],
    [{ name: 'a', spend_limit_credits: -1 }, 'spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.'],
    [{ name: 'a', spend_limit_credits: 1.5 }, 'spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.'],
    [{ name: 'a', spend_limit_credits: '10' }, 'spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.'],
    [{ name: 'a', spend_limit_credits: 2 ** 53 }, 'spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.'],
    [{ name: 'a', expires_in_days: 0 }, 'expires_in_days', 'expires_in_days must be an integer from 1 to 3660.'],
    [{ name: 'a', expires_in_days: 3661 }, 'expires_in_days', 'expires_in_days must be an integer from 1 to 3660.'],
    [{ name: 'a', expires_in_days: 2.5 }, 'expires_in_days', 'expires_in_days must be an integer from 1 to 3660.'],
    [{ name: 'a', expires_in_days: '30' }, 'expires_in_days', 'expires_in_days must be an integer from 1 to 3660.'],
  ])('refuses %j with 400 naming %s', (body, field, message) => {
    expect(refusal(() => parseCreateKey(body))).toEqual({
      status: 400,
      code: 'invalid_request',
      message,
      fields: { details: { [field]: [message] } },
    });
  });

  it('reads a body that is not an object as one without fields', () => {
    for (const body of [null, undefined, 'name', ['laptop']]) expect(refusal(() => parseCreateKey(body)).message).toBe('name is required.');
  });

  it('takes the GraphQL input type’s camelCase fields with the same rules', () => {
    expect(parseCreateKeyFields({ name: 'gql', scopes: ['build'], spendLimitCredits: 50 })).toEqual({
      name: 'gql',
      scopes: ['read', 'build'],
      spendLimitCredits: 50,
      expiresInDays: null,
    });
    expect(refusal(() => parseCreateKeyFields({ name: 'bad', expiresInDays: 0 })).fields).toEqual({
      details: { expires_in_days: ['expires_in_days must be an integer from 1 to 3660.'] },
    });
  });
});
