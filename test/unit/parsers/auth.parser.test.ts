import { parseLogin } from '../../../src/parsers/auth.parser';
import { refusal } from './refusal';

const REQUIRED = { status: 400, code: 'invalid_request', message: 'email and password are required.', fields: {} };

describe('parseLogin', () => {
  it('passes the email and password through as sent (the service compares the email case-insensitively)', () => {
    expect(parseLogin({ email: ' Ada@Example.org', password: 'pw' })).toEqual({ email: ' Ada@Example.org', password: 'pw' });
  });

  it('accepts the longest allowed values', () => {
    expect(parseLogin({ email: 'e'.repeat(254), password: 'p'.repeat(1024) }).password).toHaveLength(1024);
  });

  it.each([
    [{}],
    [{ email: 'a@b.c' }],
    [{ password: 'pw' }],
    [{ email: 1, password: 'pw' }],
    [{ email: 'a@b.c', password: null }],
    [{ email: 'e'.repeat(255), password: 'pw' }],
    [{ email: 'a@b.c', password: 'p'.repeat(1025) }],
    [null],
    [['a@b.c', 'pw']],
  ])('refuses %j with one 400 body', (body) => {
    expect(refusal(() => parseLogin(body))).toEqual(REQUIRED);
  });
});
