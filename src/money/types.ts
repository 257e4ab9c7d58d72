/** What the money module needs of the rest of the service, as shapes (it imports no service). */

/** The services' clock (src/services/clock.ts has the same shape). */
export interface Clock {
  now(): Date;
}

/** Who pays: a signed-in user, through a session or an API key (the key's id names it in the ledger). */
export interface Payer {
  user: { id: number };
  via: 'session' | 'key';
  key: { id: number } | null;
}
