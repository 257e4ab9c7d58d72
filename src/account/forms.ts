import type { Request } from 'express';
import type { CreateKeyFields } from '../parsers/keys.parser';
import type { AutoReloadFields } from '../parsers/wallet.parser';
import { DomainError } from '../lib/errors';
import { field } from './guard';
import type { KeyFormValues } from './keys.pages';

/** A number field of a form: empty is absent (null), digits (thousands commas allowed) a number, anything else
 * is passed on as text for the JSON API's parser to refuse with its own message. */
function formNumber(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^(\d+|\d{1,3}(,\d{3})+)$/.test(trimmed) ? Number(trimmed.replaceAll(',', '')) : trimmed;
}

function formList(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The create-key form as the JSON API's fields (the same names, so scripts drive both alike). */
export function keyFormFields(req: Request): { fields: CreateKeyFields; values: KeyFormValues } {
  const values: KeyFormValues = {
    name: field(req, 'name'),
    scopes: formList(req, 'scopes'),
    spendLimitCredits: field(req, 'spend_limit_credits'),
    expiresInDays: field(req, 'expires_in_days'),
  };
  return {
    fields: {
      name: values.name,
      scopes: values.scopes,
      spendLimitCredits: formNumber(values.spendLimitCredits),
      expiresInDays: formNumber(values.expiresInDays),
    },
    values,
  };
}

/** The auto-reload form: an unticked box is `enabled: false`, every field is sent. */
export function autoReloadFormFields(req: Request): AutoReloadFields {
  return {
    enabled: field(req, 'enabled') === 'true',
    thresholdCredits: formNumber(field(req, 'threshold_credits')) ?? undefined,
    amountCredits: formNumber(field(req, 'amount_credits')) ?? undefined,
  };
}

/** A domain error's per-field messages (the JSON API's `details`), for showing next to each field. */
export function fieldMessages(error: DomainError): Record<string, string[]> {
  const details = error.fields.details;
  if (!details || typeof details !== 'object') return {};
  const out: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(details as Record<string, unknown>)) {
    if (Array.isArray(messages)) out[name] = messages.map(String);
  }
  return out;
}
