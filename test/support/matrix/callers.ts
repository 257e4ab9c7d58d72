import type { Scope } from '../../../src/entities/api-key.entity';

/** Whose credentials a caller presents: the resource owner, another user, a staff user, or nobody. */
export type Who = 'owner' | 'other' | 'staff' | null;

/** What Interface A sees in a request: nothing, a key it must refuse, a valid key, or a session cookie. */
type StudioCredential =
  { kind: 'none' } | { kind: 'bad-key' } | { kind: 'key'; scopes: Scope[]; atSpendLimit: boolean } | { kind: 'session'; csrf: boolean };

/** One column of the matrix, described declaratively: the oracle reads only this, never the live fixtures. */
export interface CallerSpec {
  name: string;
  who: Who;
  studio: StudioCredential;
  /** Whether the request carries an active Interface B key in X-API-Key. */
  appKey: boolean;
}

const key = (scopes: Scope[], atSpendLimit = false): StudioCredential => ({ kind: 'key', scopes, atSpendLimit });

export const CALLERS: CallerSpec[] = [
  { name: 'no credentials', who: null, studio: { kind: 'none' }, appKey: false },
  { name: 'malformed token', who: null, studio: { kind: 'bad-key' }, appKey: false },
  { name: 'revoked key', who: 'owner', studio: { kind: 'bad-key' }, appKey: false },
  { name: 'expired key', who: 'owner', studio: { kind: 'bad-key' }, appKey: false },
  { name: 'read key', who: 'owner', studio: key(['read']), appKey: false },
  { name: 'build key', who: 'owner', studio: key(['read', 'build']), appKey: false },
  { name: 'spend key', who: 'owner', studio: key(['read', 'spend']), appKey: false },
  { name: 'all-scope key', who: 'owner', studio: key(['read', 'build', 'spend']), appKey: false },
  { name: 'key at its spend limit', who: 'owner', studio: key(['read', 'build', 'spend'], true), appKey: false },
  { name: 'session without CSRF token', who: 'owner', studio: { kind: 'session', csrf: false }, appKey: false },
  { name: 'session', who: 'owner', studio: { kind: 'session', csrf: true }, appKey: false },
  { name: "another user's session", who: 'other', studio: { kind: 'session', csrf: true }, appKey: false },
  { name: 'staff session', who: 'staff', studio: { kind: 'session', csrf: true }, appKey: false },
  { name: 'application key (X-API-Key)', who: null, studio: { kind: 'none' }, appKey: true },
  { name: 'application key as Authorization: Token', who: null, studio: { kind: 'bad-key' }, appKey: false },
  { name: 'deactivated application key', who: null, studio: { kind: 'none' }, appKey: false },
  { name: 'studio key in X-API-Key', who: null, studio: { kind: 'none' }, appKey: false },
];

/** The headers a caller sends; `csrf` goes out only on unsafe methods, as a browser script would. */
export interface Credentials {
  authorization?: string;
  sessionToken?: string;
  csrfToken?: string;
  apiKey?: string;
}

export interface LiveCaller {
  spec: CallerSpec;
  credentials: Credentials;
  /** A new credential of the same kind for a cell that uses it up (signing out). */
  renew?: () => Promise<Credentials>;
}
