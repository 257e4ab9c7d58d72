import { badRequest } from '../lib/errors';
import { bodyFields } from './auth.parser';

/** PATCH auto-reload: only the fields sent change; at least one is sent. */
export interface AutoReloadUpdate {
  enabled?: boolean;
  thresholdCredits?: number;
  amountCredits?: number;
}

/** The auto-reload fields as either transport received them (GraphQL's input type has this shape). */
export interface AutoReloadFields {
  enabled?: unknown;
  thresholdCredits?: unknown;
  amountCredits?: unknown;
}

/** The REST body of PATCH /api/v1/wallet/auto-reload/. */
export function parseAutoReload(body: unknown): AutoReloadUpdate {
  const fields = bodyFields(body);
  return parseAutoReloadFields({ enabled: fields.enabled, thresholdCredits: fields.threshold_credits, amountCredits: fields.amount_credits });
}

function credits(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw badRequest(`${field} must be an integer of at least 0.`, { details: { [field]: ['Must be an integer ≥ 0.'] } });
  }
  return value;
}

export function parseAutoReloadFields(input: AutoReloadFields): AutoReloadUpdate {
  if (input.enabled === undefined && input.thresholdCredits === undefined && input.amountCredits === undefined) {
    throw badRequest('Send at least one of enabled, threshold_credits, amount_credits.');
  }
  const update: AutoReloadUpdate = {};
  if (input.enabled !== undefined) {
    if (typeof input.enabled !== 'boolean') throw badRequest('enabled must be a boolean.', { details: { enabled: ['Must be a boolean.'] } });
    update.enabled = input.enabled;
  }
  if (input.thresholdCredits !== undefined) update.thresholdCredits = credits('threshold_credits', input.thresholdCredits);
  if (input.amountCredits !== undefined) update.amountCredits = credits('amount_credits', input.amountCredits);
  return update;
}
