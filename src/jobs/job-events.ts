import { EventEmitter } from 'node:events';
import { PgListener } from '../db/pg-listener';
import type { Logger } from '../lib/logger';
import { CREDENTIAL_CHANNEL, parseCredentialEvent, type CredentialEvent } from '../services/credential-events';
import { JOB_CHANNEL, type JobEvent } from '../services/jobs.service';

/** LISTENs on the job channel and the credential channel, each with its own connection, and fans events out
 * in-process, so a subscriber on this gateway sees progress made by a worker in any process and a socket sees
 * its credential revoked by any process. Reconnects by itself after a database outage. */
export class JobEventHub {
  private readonly emitter = new EventEmitter();
  private readonly listeners: PgListener[];

  constructor(databaseUrl: string, logger: Logger) {
    this.emitter.setMaxListeners(0);
    const jobs = new PgListener(databaseUrl, JOB_CHANNEL, {
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
    const credentials = new PgListener(databaseUrl, CREDENTIAL_CHANNEL, {
      notify: (payload) => {
        const event = parseCredentialEvent(payload);
        if (event) this.emitter.emit('credential', event);
        else logger.warn({ payload }, 'unreadable credential event');
      },
      restored: () => {
        logger.info('credential event connection restored');
        this.emitter.emit('credential', null);
      },
      problem: (message, error) => logger.warn({ err: error }, `credential events: ${message}`),
    });
    this.listeners = [jobs, credentials];
  }

  async start(): Promise<void> {
    await Promise.all(this.listeners.map((listener) => listener.start()));
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

  /** Calls `listener` with each user whose credentials changed, or with null after a lost connection (any
   * user's may have: re-check them all). Returns the unsubscribe function. */
  subscribeCredentials(listener: (event: CredentialEvent | null) => void): () => void {
    this.emitter.on('credential', listener);
    return () => void this.emitter.off('credential', listener);
  }

  async stop(): Promise<void> {
    await Promise.all(this.listeners.map((listener) => listener.stop()));
    this.emitter.removeAllListeners();
  }
}
