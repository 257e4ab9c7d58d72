import { normaliseEmail, parseProfileUpdate } from '../../../src/parsers/users.parser';
import { refusal } from './refusal';

const BAD_EMAIL = {
  status: 400,
  code: 'invalid_request',
  message: 'A valid email address is required.',
  fields: { details: { email: ['Enter a valid email address.'] } },
};
const BAD_NAME = {
  status: 400,
  code: 'invalid_request',
  message: 'name must be a string of at most 150 characters.',
  fields: { details: { name: ['Invalid name.'] } },
};

describe('normaliseEmail', () => {
  it('trims and keeps the case', () => {
    expect(normaliseEmail('  Ada@Example.ORG ')).toBe('Ada@Example.ORG');
  });

  it('counts the length before trimming', () => {
    const longest = `${'a'.repeat(242)}@example.org`;
    expect(normaliseEmail(longest)).toBe(longest);
    expect(refusal(() => normaliseEmail(`  ${longest}`))).toEqual(BAD_EMAIL);
  });

  it.each([['not-an-email'], ['a@b'], ['a b@c.d'], ['@b.c'], [''], [42], [null]])('refuses %j', (email) => {
    expect(refusal(() => normaliseEmail(email))).toEqual(BAD_EMAIL);
  });
});

describe('parseProfileUpdate', () => {
  it('keeps only the fields sent', () => {
    expect(parseProfileUpdate({})).toEqual({});
    expect(parseProfileUpdate({ name: 'Ada' })).toEqual({ name: 'Ada' });
    expect(parseProfileUpdate({ name: '', email: ' ada@example.org' })).toEqual({ name: '', email: 'ada@example.org' });
  });

  it('accepts a 150-character name and refuses 151 characters, null or a number', () => {
    expect(parseProfileUpdate({ name: 'n'.repeat(150) }).name).toHaveLength(150);
    for (const name of ['n'.repeat(151), null, 5]) expect(refusal(() => parseProfileUpdate({ name }))).toEqual(BAD_NAME);
  });

  it('checks the name before the email', () => {
    expect(refusal(() => parseProfileUpdate({ name: null, email: 'bad' }))).toEqual(BAD_NAME);
  });

  it('refuses an invalid or null email', () => {
    for (const email of ['not-an-email', null]) expect(refusal(() => parseProfileUpdate({ email }))).toEqual(BAD_EMAIL);
  });

  it('reads a body that is not an object as an empty update', () => {
    for (const body of [null, 'x', ['Ada']]) expect(parseProfileUpdate(body)).toEqual({});
  });
});
