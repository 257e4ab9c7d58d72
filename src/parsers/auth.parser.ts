import { DomainError } from '../lib/errors';
import { codePointLength } from '../lib/text';

export interface LoginInput {
  email: string;
  password: string;
}

/** A JSON body's fields; any other body (an array, a string, none) has none, so each field reads as missing. */
export function bodyFields(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Sign-in fields (GraphQL's arguments and the admin form pass theirs as the same record). */
export function parseLogin(body: unknown): LoginInput {
  const { email, password } = bodyFields(body);
  if (typeof email !== 'string' || typeof password !== 'string' || codePointLength(email) > 254 || codePointLength(password) > 1024) {
    throw new DomainError(400, 'invalid_request', 'email and password are required.');
  }
  return { email, password };
}
