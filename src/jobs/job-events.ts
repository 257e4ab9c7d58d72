import { EventEmitter } from 'node:events';
import { PgListener } from '../db/pg-listener';
import type { Logger } from '../lib/logger';
import { JOB_CHANNEL, type JobEvent } from '../services/jobs.service';

/** LISTENs on the job channel with its own connection and fans events out in-process, so a subscriber on this
 * gateway sees progress made by a worker in any process. Reconnects by itself after a database outage. */
export class JobEventHub {
  private readonly emitter = new EventEmitter();
  private readonly listener: PgListener;

  constructor(databaseUrl: string, logger: Logger) {
    this.emitter.setMaxListeners(0);
    this.listener = new PgListener(databaseUrl, JOB_CHANNEL, {
      notify: (payload) => {
        let event: JobEvent;
        try {
          event = JSON.parse(payload) as JobEvent;
        } catch (error) {
          logger.warn({ err: error }, 'unreadable job event');
          return;
        }
        this.emitter.emit('job', event);
      },
      restored: () => {
        logger.info('job event connection restored');
        this.emitter.emit('reconnected');
      },
      problem: (message, error) => logger.warn({ err: error }, `job events: ${message}`),
    });
  }

  async start(): Promise<void> {
    await this.listener.start();
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
    await this.listener.stop();
    this.emitter.removeAllListeners();
  }
}
