/** Postgres channel on which every sent queue message announces its queue's name. NOTIFY is delivered at
 * commit, so a worker woken by it finds the message, whichever process sent it. */
export const QUEUE_WAKE_CHANNEL = 'sdc_queue_wake';

/** `{text, values}` that announces a message on `queue`; run on the connection (and transaction) that sent it. */
export const wakeQueueSql = (queue: string) => ({ text: 'SELECT pg_notify($1, $2)', values: [QUEUE_WAKE_CHANNEL, queue] });
