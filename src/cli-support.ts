import { loadSettings } from './config';
import { createServices, type Services } from './container';
import { openDatabase } from './db/connect';
import { createDataSource } from './db/data-source';
import { migrateDatabase } from './db/migrate';
import { JobQueue } from './jobs/queue';
import { createLogger } from './lib/logger';

/** Prints one JSON object with --json, a readable line otherwise. */
export function output(json: boolean, value: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** Opens the same database as `npm start` (embedded or DATABASE_URL), migrates it, runs `fn`, closes. */
export async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const settings = loadSettings();
  const logger = createLogger(process.env.LOG_LEVEL || 'warn');
  const database = await openDatabase(settings, logger);
  try {
    await migrateDatabase(database.url);
    const db = createDataSource(database.url, 4);
    await db.initialize();
    const queue = await JobQueue.start(database.url, { supervise: false, expireInSeconds: settings.jobExpireSeconds, maintenanceIntervalSeconds: settings.queueMaintenanceSeconds, onError: () => undefined });
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
