import { sql } from '../sql';
import { QUEUE_SCHEMA } from '../queues';

/** The job queue's own statements beside pg-boss (src/jobs/queue.ts), each run through pg-boss's `executeSql`. */

/** Postgres channel on which every sent queue message announces its queue's name. NOTIFY is delivered at commit,
 * so a worker woken by it finds the message, whichever process sent it. */
export const QUEUE_WAKE_CHANNEL = 'sdc_queue_wake';

/** Announces a message on `queue`; run on the connection (and transaction) that sent it. */
export const wakeQueue = (queue: string) => notify(QUEUE_WAKE_CHANNEL, queue);

/** `payload` on `channel`, delivered to its listeners when the transaction commits. */
export const notify = (channel: string, payload: string) => sql('SELECT pg_notify($1, $2)', [channel, payload]);

/** A message back to `created` as if never fetched: pg-boss counts an attempt only for a message that was started. */
const RESET = `SET state = 'created', started_on = NULL, start_after = now()`;

/** The given messages, if still active, handed back. */
export const releaseMessages = (ids: string[]) => sql(`UPDATE ${QUEUE_SCHEMA}.job ${RESET} WHERE id = ANY($1::uuid[]) AND state = 'active'`, [ids]);

/** Every active message handed back; returns their queues' names. */
export const releaseActiveMessages = () => sql<{ name: string }>(`UPDATE ${QUEUE_SCHEMA}.job ${RESET} WHERE state = 'active' RETURNING name`);
