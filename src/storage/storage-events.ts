import { PgListener } from '../db/pg-listener';
import type { Logger } from '../lib/logger';
import { STORAGE_CHANNEL, type StorageArea } from './storage';

/** A changed stored file (`area/name`), or null after a lost connection: anything may have changed. */
export type StorageChange = { area: StorageArea; name: string } | null;

/** Fans the storage channel (NOTIFY from any node's put or delete) out to this node's caches. Until `start`, only
 * this node's own changes reach them (the stores call `emit` themselves). */
export class StorageEvents {
  private readonly subscribers = new Set<(change: StorageChange) => void>();
  private listener: PgListener | null = null;

  constructor(private readonly logger: Logger) {}

  subscribe(subscriber: (change: StorageChange) => void): () => void {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  }

  emit(change: StorageChange): void {
    for (const subscriber of this.subscribers) subscriber(change);
  }

  /** LISTENs on the storage channel; reconnects by itself, and clears every cache when it is back. */
  async start(databaseUrl: string): Promise<void> {
    if (this.listener) return;
    this.listener = new PgListener(databaseUrl, STORAGE_CHANNEL, {
      notify: (payload) => {
        const slash = payload.indexOf('/');
        if (slash > 0) this.emit({ area: payload.slice(0, slash) as StorageArea, name: payload.slice(slash + 1) });
        else this.logger.warn({ payload }, 'unreadable storage event');
      },
      restored: () => {
        this.logger.info('storage event connection restored');
        this.emit(null);
      },
      problem: (message, error) => this.logger.warn({ err: error }, `storage events: ${message}`),
    });
    await this.listener.start({ retryInBackground: true });
  }

  async stop(): Promise<void> {
    await this.listener?.stop();
    this.listener = null;
  }
}
