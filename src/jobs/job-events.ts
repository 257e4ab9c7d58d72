import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { Logger } from '../lib/logger';
import { JOB_CHANNEL, type JobEvent } from '../services/jobs.service';

/** LISTENs on the job channel with its own connection and fans events out in-process, so a subscriber on this
 * gateway sees progress made by a worker in any process. Reconnects by itself after a database outage. */
export class JobEventHub {
  private readonly emitter = new EventEmitter();
  private client: Client | null = null;
  private stopped = false;
  private retryMs = 250;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel !== JOB_CHANNEL || !message.payload) return;
      try {
        this.emitter.emit('job', JSON.parse(message.payload) as JobEvent);
      } catch (error) {
        this.logger.warn({ err: error }, 'unreadable job event');
      }
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'job event connection lost; reconnecting');
      void this.reconnect(client);
    });
    client.on('end', () => void this.reconnect(client));
    await client.connect();
    await client.query(`LISTEN ${JOB_CHANNEL}`);
    this.client = client;
    if (this.retryMs > 250) this.logger.info('job event connection restored');
    this.retryMs = 250;
    this.emitter.emit('reconnected');
  }

  private async reconnect(failed: Client): Promise<void> {
    if (this.stopped || this.client !== failed) return;
    this.client = null;
    failed.removeAllListeners('end');
    await failed.end().catch(() => undefined);
    while (!this.stopped && !this.client) {
      await new Promise((r) => setTimeout(r, this.retryMs));
      this.retryMs = Math.min(this.retryMs * 2, 5000);
      try {
        await this.connect();
      } catch (error) {
        this.logger.warn({ err: error }, 'job event reconnect failed');
      }
    }
  }

  /** Calls `listener` for every event; returns the unsubscribe function. `onReconnect` lets a subscriber
   * re-read state it may have missed while the connection was down. */
  subscribe(listener: (event: JobEvent) => void, onReconnect?: () => void): () => void {
    this.emitter.on('job', listener);
    if (onReconnect) this.emitter.on('reconnected', onReconnect);
    return () => {
      this.emitter.off('job', listener);
      if (onReconnect) this.emitter.off('reconnected', onReconnect);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
    this.emitter.removeAllListeners();
  }
}
