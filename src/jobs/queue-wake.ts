import { Client } from 'pg';

/** Postgres channel on which every sent queue message announces its queue's name. NOTIFY is delivered at
 * commit, so a worker woken by it finds the message, whichever process sent it. */
export const QUEUE_WAKE_CHANNEL = 'sdc_queue_wake';

/** `{text, values}` that announces a message on `queue`; run on the connection (and transaction) that sent it. */
export const wakeQueueSql = (queue: string) => ({ text: 'SELECT pg_notify($1, $2)', values: [QUEUE_WAKE_CHANNEL, queue] });

const MAX_RETRY_MS = 5000;

/** LISTENs on the wake channel with its own connection and calls `onWake(queue)` for every announcement.
 * After a lost connection it reconnects and calls `onWake` for every queue, since announcements were missed
 * meanwhile (polling still picks those messages up, only later). */
export class QueueWakeListener {
  private client: Client | null = null;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onWake: (queue: string | null) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Resolves once listening, or once the first attempt failed (reported; retried in the background, while
   * workers poll): a worker process starts even while the database refuses connections. */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.onError(new Error(`queue wake listener could not connect: ${(error as Error).message}`, { cause: error }));
      void this.retry();
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === QUEUE_WAKE_CHANNEL && message.payload) this.onWake(message.payload);
    });
    client.on('error', (error) => {
      this.onError(new Error(`queue wake connection lost: ${error.message}`, { cause: error }));
      void this.reconnect(client);
    });
    client.on('end', () => void this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${QUEUE_WAKE_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private async reconnect(failed: Client): Promise<void> {
    if (this.stopped || this.client !== failed) return;
    this.client = null;
    failed.removeAllListeners('end');
    await failed.end().catch(() => undefined);
    await this.retry();
  }

  private async retry(): Promise<void> {
    for (let retryMs = 250; !this.stopped && !this.client; retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)) {
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      try {
        await this.connect();
        this.onWake(null);
      } catch (error) {
        this.onError(new Error(`queue wake reconnect failed: ${(error as Error).message}`, { cause: error }));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
