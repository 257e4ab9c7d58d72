import { Client } from 'pg';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

export interface PgListenerEvents {
  notify(payload: string, channel: string): void;
  /** The connection is back after it was lost: notifications sent meanwhile were missed. */
  restored(): void;
  problem(message: string, error: Error): void;
}

/** LISTENs on one channel (or several) with a connection of its own and reconnects by itself (backoff from
 * 250 ms to 5 s) after a database outage. */
export class PgListener {
  private client: Client | null = null;
  private stopped = false;
  private readonly channels: string[];

  constructor(
    private readonly databaseUrl: string,
    channel: string | string[],
    private readonly events: PgListenerEvents,
  ) {
    this.channels = typeof channel === 'string' ? [channel] : channel;
  }

  /** Whether notifications are being received now (false before start, while reconnecting and after stop). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Resolves once listening. A failed first attempt is thrown, or with `retryInBackground` reported and
   * retried while the caller goes on. */
  async start(options: { retryInBackground?: boolean } = {}): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      if (!options.retryInBackground) throw error;
      this.events.problem('could not connect; retrying', error as Error);
      void this.retry();
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (this.channels.includes(message.channel) && message.payload) this.events.notify(message.payload, message.channel);
    });
    client.on('error', (error) => {
      this.events.problem('connection lost; reconnecting', error);
      void this.reconnect(client);
    });
    client.on('end', () => void this.reconnect(client));
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await this.close(client);
      throw error;
    }
    if (this.stopped) await this.close(client);
    else this.client = client;
  }

  private async reconnect(failed: Client): Promise<void> {
    if (this.stopped || this.client !== failed) return;
    this.client = null;
    await this.close(failed);
    await this.retry();
  }

  private async retry(): Promise<void> {
    for (let retryMs = FIRST_RETRY_MS; !this.stopped && !this.client; retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)) {
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      try {
        await this.connect();
      } catch (error) {
        this.events.problem('reconnect failed', error as Error);
        continue;
      }
      if (this.client) this.events.restored();
    }
  }

  private async close(client: Client): Promise<void> {
    client.removeAllListeners('end');
    await client.end().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    if (client) await this.close(client);
  }
}
