import { badRequest } from '../lib/errors';

/** Where a myJobs stream stood: every event of the caller's jobs at or after `since` (ms) was delivered if and
 * only if its job is in `seqs` with at least its number; no event before `since` is missing. */
export interface JobCursor {
  since: number;
  seqs: Map<string, number>;
}

const MAX_CURSOR_LENGTH = 64 * 1024;

/** The opaque `Job.cursor` a myJobs item carries: base64url of `{s: since, j: [[ctId, seq], …]}`. */
export const encodeJobCursor = (cursor: JobCursor): string =>
  Buffer.from(JSON.stringify({ s: cursor.since, j: [...cursor.seqs] })).toString('base64url');

const isPosition = (entry: unknown): entry is [string, number] =>
  Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]) && entry[1] >= 0;

/** The `after` argument of myJobs: a `cursor` it sent earlier. */
export function parseJobCursor(raw: unknown): JobCursor {
  const refuse = () => badRequest('after must be the cursor of an item myJobs sent.', { details: { after: ['Not a myJobs cursor.'] } });
  if (typeof raw !== 'string' || raw.length > MAX_CURSOR_LENGTH) throw refuse();
  let decoded: { s?: unknown; j?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { s?: unknown; j?: unknown };
  } catch {
    throw refuse();
  }
  if (!decoded || !Number.isSafeInteger(decoded.s) || !Array.isArray(decoded.j) || !decoded.j.every(isPosition)) throw refuse();
  return { since: decoded.s as number, seqs: new Map(decoded.j) };
}
