import { badRequest } from '../lib/errors';
import { unsafeIntegerPath } from './jcs';
import { RECEIPT_ID, RECEIPT_TIMESTAMP } from './receipt';
import type { SettleInput, TriggerInput } from './service';

/** The settlement calls' bodies (vsl.md §1), as sdcreceipt and HalvorsenDemo send them. */

const MAX_PARTIES = 16;
const MAX_KEY_ID = 256;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (field: string, message: string) => badRequest(`${field}: ${message}`, { details: { [field]: [message] } });

function text(body: Record<string, unknown>, field: string, max: number): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'Required: a non-empty string.');
  if (value.length > max) throw invalid(field, `At most ${max} characters.`);
  return value;
}

/** A party is named by its key document: an https:// URL or a did:web identifier. */
function party(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_KEY_ID)
    throw invalid('parties', `Each party is a key_id of 1 to ${MAX_KEY_ID} characters.`);
  if (value.startsWith('did:web:') && value.length > 'did:web:'.length) return value;
  try {
    if (new URL(value).protocol === 'https:') return value;
  } catch {
    // refused below
  }
  throw invalid('parties', `${value} is neither an https:// URL nor a did:web identifier.`);
}

export function parseSettleBody(body: unknown): SettleInput {
  if (!isRecord(body)) throw badRequest('Send a JSON object: {payload, current_state, target_state, condition, parties}.');
  const payload = text(body, 'payload', 20 * 1024 * 1024);
  const targetState = text(body, 'target_state', MAX_KEY_ID);
  const currentState = body.current_state === undefined || body.current_state === null ? null : text(body, 'current_state', MAX_KEY_ID);
  if (!isRecord(body.condition)) throw invalid('condition', 'Required: a JSON object (hashed, never stored).');
  const unsafe = unsafeIntegerPath(body.condition);
  if (unsafe) throw invalid('condition', `${unsafe} is an integer beyond ±(2^53−1), which RFC 8785 cannot commit to exactly.`);
  if (!Array.isArray(body.parties) || body.parties.length < 2) throw invalid('parties', 'At least two parties (key_id URIs).');
  if (body.parties.length > MAX_PARTIES) throw invalid('parties', `At most ${MAX_PARTIES} parties.`);
  const parties = body.parties.map(party);
  if (new Set(parties).size !== parties.length) throw invalid('parties', 'Parties must be distinct.');
  const previous = body.previous_receipt_id;
  if (previous !== undefined && previous !== null && (typeof previous !== 'string' || !RECEIPT_ID.test(previous))) {
    throw invalid('previous_receipt_id', 'A receipt_id (24 characters, CUID2).');
  }
  return {
    payload,
    currentState,
    targetState,
    condition: body.condition,
    parties,
    previousReceiptId: typeof previous === 'string' ? previous : null,
  };
}

export function parseReceiptId(value: unknown, field = 'receipt_id'): string {
  if (typeof value !== 'string' || !RECEIPT_ID.test(value)) throw invalid(field, 'A receipt_id (24 characters, CUID2).');
  return value;
}

export function parseTriggerBody(body: unknown): TriggerInput {
  if (!isRecord(body)) throw badRequest('Send a JSON object: {receipt_id, key_id, signature, timestamp}.');
  const receiptId = parseReceiptId(body.receipt_id);
  const keyId = text(body, 'key_id', MAX_KEY_ID);
  const signature = text(body, 'signature', 1024);
  const timestamp = text(body, 'timestamp', 64);
  if (!RECEIPT_TIMESTAMP.test(timestamp)) throw invalid('timestamp', 'UTC, YYYY-MM-DDTHH:MM:SSZ.');
  return { receiptId, keyId, signature, timestamp };
}
