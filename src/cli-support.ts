import { loadSettings } from './config';
import type * as Container from './container';
import type * as DataSourceModule from './db/data-source';
import type * as Queue from './jobs/queue';
import type * as Workers from './jobs/workers';
import { openDatabase } from './db/connect';
import { migrateDatabase } from './db/migrate';
import { createLogger } from './lib/logger';

/** Prints one JSON object with --json, a readable line otherwise. */
export function output(json: boolean, value: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** Opens the same database as `npm start` (embedded or DATABASE_URL), migrates it, runs `fn`, closes. */
export async function withServices<T>(fn: (services: Container.Services) => Promise<T>): Promise<T> {
  const settings = loadSettings();
  const logger = createLogger(process.env.LOG_LEVEL || 'warn');
  const database = await openDatabase(settings, logger);
  try {
    // Required here, not imported at the top: the service graph takes most of a second to load and `--help` needs none of it.
    const { createServices } = require('./container') as typeof Container;
    const { createDataSource } = require('./db/data-source') as typeof DataSourceModule;
    const { JobQueue } = require('./jobs/queue') as typeof Queue;
    const { QUEUES } = require('./jobs/workers') as typeof Workers;
    await migrateDatabase(database.url);
    const db = createDataSource(database.url, 4);
    await db.initialize();
    const queue = await JobQueue.start(database.url, {
      queues: QUEUES,
      supervise: false,
      expireInSeconds: settings.jobExpireSeconds,
      maintenanceIntervalSeconds: settings.queueMaintenanceSeconds,
      onError: () => undefined,
    });
    try {
      return await fn(createServices({ settings, db, logger, queue }));
    } finally {
      await queue.stop();
      await db.destroy();
    }
  } finally {
    await database.stop();
  }
}
