import 'reflect-metadata';
import { loadSettings } from './config';
import { createServices } from './container';
import { openDatabase } from './db/connect';
import { createDataSource } from './db/data-source';
import { migrateDatabase } from './db/migrate';
import { JobEventHub } from './jobs/job-events';
import { JobQueue } from './jobs/queue';
import { startRdfSyncWorker } from './jobs/rdf-sync.task';
import { startWorkers } from './jobs/workers';
import { isDatabaseUnavailable } from './lib/errors';
import { createLogger } from './lib/logger';
import { loadAppConfig } from './packages/app-config';
import { startHttpServer } from './server';

/** `npm start`: database (embedded unless DATABASE_URL), migrations, then the roles ROLE asks for. */
async function main(): Promise<void> {
  const settings = loadSettings();
  const logger = createLogger(settings.logLevel);
  if (settings.role === 'app') await loadAppConfig(settings, logger);
  const database = await openDatabase(settings, logger);
  const stops: Array<() => Promise<void>> = [database.stop];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    for (const stop of [...stops].reverse()) {
      await stop().catch((error: unknown) => logger.error({ err: error }, 'shutdown step failed'));
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // pg-boss 10 settles a worked message without awaiting it (timgit/pg-boss#577): during a database outage that
  // rejection is unhandled. The message stays active and is retried after its expiry, so the process carries on.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) return logger.warn({ err: reason }, 'a queue message could not be settled: database unavailable');
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });

  const applied = await migrateDatabase(database.url);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const db = createDataSource(database.url);
  await db.initialize();
  stops.push(() => db.destroy());
  const queue = await JobQueue.start(database.url, {
    supervise: settings.role !== 'gateway',
    expireInSeconds: settings.jobExpireSeconds,
    maintenanceIntervalSeconds: settings.queueMaintenanceSeconds,
    onError: (error) => logger.error({ err: error }, 'queue error'),
  });
  stops.push(() => queue.stop());
  let events: JobEventHub | null = null;
  if (settings.role !== 'worker') {
    events = new JobEventHub(database.url, logger);
    await events.start();
    stops.push(() => events!.stop());
  }
  const services = createServices({ settings, db, logger, queue, events });
  if (settings.role === 'worker' || settings.role === 'all') {
    const stopWorkers = await startWorkers(services);
    stops.push(async () => stopWorkers());
    logger.info({ concurrency: settings.workerConcurrency }, 'workers started');
  }
  if (settings.role === 'app') {
    const stopRdfSync = await startRdfSyncWorker(services);
    stops.push(async () => stopRdfSync());
  }

  if (settings.role !== 'worker') {
    const server = await startHttpServer(services, { port: settings.port, host: settings.host });
    stops.push(server.close);
    logger.info({ url: `http://localhost:${settings.port}`, role: settings.role }, 'listening');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
