import { badRequest } from '../lib/errors';
import { bodyFields } from './auth.parser';
import { codePointLength } from '../lib/text';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_NAME_LENGTH = 150;

/** PATCH profile: only the fields sent change. */
export interface ProfileUpdate {
  name?: string;
  email?: string;
}

/** An email address as stored: trimmed, case kept (sign-in and uniqueness compare it case-insensitively). */
export function normaliseEmail(email: unknown): string {
  if (typeof email !== 'string' || !EMAIL.test(email.trim()) || codePointLength(email) > 254) {
    throw badRequest('A valid email address is required.', { details: { email: ['Enter a valid email address.'] } });
  }
  return email.trim();
}

/** The profile fields as REST's body or GraphQL's input type carry them (same names in both). */
export function parseProfileUpdate(body: unknown): ProfileUpdate {
  const { name, email } = bodyFields(body);
  const update: ProfileUpdate = {};
  if (name !== undefined) {
    if (typeof name !== 'string' || codePointLength(name) > MAX_NAME_LENGTH) {
      throw badRequest(`name must be a string of at most ${MAX_NAME_LENGTH} characters.`, { details: { name: ['Invalid name.'] } });
    }
    update.name = name;
  }
  if (email !== undefined) update.email = normaliseEmail(email);
  return update;
}
