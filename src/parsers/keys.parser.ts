import { SCOPES, type Scope } from '../entities/api-key.entity';
import { badRequest, type DomainError } from '../lib/errors';
import { bodyFields } from './auth.parser';
import { codePointLength } from '../lib/text';

const MAX_NAME_LENGTH = 100;
const MAX_EXPIRES_IN_DAYS = 3660;

/** A validated key policy; defaults: every scope, no limit, no expiry. `read` is always present. */
export interface CreateKeyInput {
  name: string;
  scopes: Scope[];
  spendLimitCredits: number | null;
  expiresInDays: number | null;
}

/** The create-key fields as either transport received them (GraphQL's input type has this shape). */
export interface CreateKeyFields {
  name?: unknown;
  scopes?: unknown;
  spendLimitCredits?: unknown;
  expiresInDays?: unknown;
}

function invalid(field: string, message: string): DomainError {
  return badRequest(message, { details: { [field]: [message] } });
}

const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);

/** The REST body of POST /api/v1/auth/api-tokens/. */
export function parseCreateKey(body: unknown): CreateKeyInput {
  const fields = bodyFields(body);
  return parseCreateKeyFields({
    name: fields.name,
    scopes: fields.scopes,
    spendLimitCredits: fields.spend_limit_credits,
    expiresInDays: fields.expires_in_days,
  });
}

export function parseCreateKeyFields(input: CreateKeyFields): CreateKeyInput {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw invalid('name', 'name is required.');
  if (codePointLength(name) > MAX_NAME_LENGTH) throw invalid('name', `name must have at most ${MAX_NAME_LENGTH} characters.`);
  let scopes: Scope[] = [...SCOPES];
  if (input.scopes !== undefined && input.scopes !== null) {
    if (!Array.isArray(input.scopes) || !input.scopes.every(isScope)) {
      throw invalid('scopes', 'scopes must be an array of read, build and spend.');
    }
    const asked = new Set<Scope>(['read', ...input.scopes]);
    scopes = SCOPES.filter((s) => asked.has(s));
  }
  let spendLimitCredits: number | null = null;
  if (input.spendLimitCredits !== undefined && input.spendLimitCredits !== null) {
    const limit = input.spendLimitCredits;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
      throw invalid('spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.');
    }
    spendLimitCredits = limit;
  }
  let expiresInDays: number | null = null;
  if (input.expiresInDays !== undefined && input.expiresInDays !== null) {
    const days = input.expiresInDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
      throw invalid('expires_in_days', `expires_in_days must be an integer from 1 to ${MAX_EXPIRES_IN_DAYS}.`);
    }
    expiresInDays = days;
  }
  return { name, scopes, spendLimitCredits, expiresInDays };
}
