import { sql } from '../sql';

/** A NOTIFY on `channel`; inside a transaction Postgres sends it at commit only. */
export const notify = (channel: string, payload: string) => sql('SELECT pg_notify($1, $2)', [channel, payload]);
