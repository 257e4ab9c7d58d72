import 'reflect-metadata';
import { loadSettings } from './config';
import { createServices } from './container';
import { openDatabase } from './db/connect';
import { createDataSource } from './db/data-source';
import { migrateDatabase } from './db/migrate';
import { PortInUse } from './http/base-app';
import { JobEventHub } from './jobs/job-events';
import { startMaintenance } from './jobs/maintenance';
import { JobQueue } from './jobs/queue';
import { startRdfSyncWorker } from './jobs/rdf-sync.task';
import { QUEUES, startWorkers } from './jobs/workers';
import { isDatabaseUnavailable } from './lib/errors';
import { createLogger, type Logger } from './lib/logger';
import { lowerThreadsPriority, otherThreads } from './lib/thread-priority';
import { loadAppConfig } from './packages/app-config';
import { startHttpServer } from './server';

/** What has been started so far, stopped in reverse order on a signal or a failed start. */
const stops: Array<() => Promise<void>> = [];
let stopping = false;
let startedLogger: Logger | null = null;

async function stopAll(logger: Logger): Promise<void> {
  stopping = true;
  for (const stop of stops.reverse()) {
    await stop().catch((error: unknown) => logger.warn({ err: error }, 'shutdown step failed'));
  }
}

/** `npm start`: database (embedded unless DATABASE_URL), migrations, then the roles ROLE asks for. */
async function main(): Promise<void> {
  const settings = loadSettings();
  // The threads Node started with the process (V8's garbage collectors and compilers, which do that work for the
  // CPU pool's threads as much as for the event loop) run at the pool's priority (CPU_POOL_NICE): under load they
  // would otherwise take a core from the event loop at its own priority. Threads started later inherit it from
  // the thread that starts them (the event loop's stay at the process's priority).
  lowerThreadsPriority(otherThreads(), settings.cpu.thread.nice);
  const logger = createLogger(settings.logLevel);
  startedLogger = logger;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    logger.info({ signal }, 'shutting down');
    await stopAll(logger);
    logger.info('stopped');
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
  if (settings.role === 'app') await loadAppConfig(settings, logger);
  const database = await openDatabase(settings, logger);
  stops.push(database.stop);

  const applied = await migrateDatabase(database.url);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const db = createDataSource(database.url);
  await db.initialize();
  stops.push(() => db.destroy());
  const queue = await JobQueue.start(database.url, {
    queues: QUEUES,
    supervise: settings.role !== 'gateway',
    expireInSeconds: settings.jobExpireSeconds,
    maintenanceIntervalSeconds: settings.queueMaintenanceSeconds,
    // While stopping, a connection the database closed first is expected, not an error.
    onError: (error) => (stopping ? logger.debug({ err: error }, 'queue error while stopping') : logger.error({ err: error }, 'queue error')),
  });
  stops.push(() => queue.stop());
  // A database this process has just started has no other client: whatever it shows as running was interrupted.
  if (database.embedded) {
    const released = await queue.releaseAbandoned();
    if (released) logger.info({ released }, 'interrupted queue messages handed back');
  }
  let events: JobEventHub | null = null;
  if (settings.role !== 'worker') {
    events = new JobEventHub(database.url, logger);
    await events.start();
    stops.push(() => events!.stop());
  }
  const services = createServices({ settings, db, logger, queue, events });
  // Every node's caches of stored files hear of changes made by any node.
  await services.app.storageEvents.start(database.url);
  stops.push(() => services.app.storageEvents.stop());
  stops.push(startMaintenance(services, settings.role));
  const staged = await services.app.files.cleanStaging(false);
  if (staged) logger.info({ removed: staged }, 'staging files of interrupted uploads removed');
  stops.push(async () => void (await services.app.files.cleanStaging(true)));
  if (settings.role === 'worker' || settings.role === 'all') {
    await startWorkers(services);
    logger.info({ concurrency: settings.workerConcurrency }, 'workers started');
  }
  if (settings.role === 'app') {
    await startRdfSyncWorker(services);
  }

  if (settings.role !== 'worker') {
    // The pool's threads start warm, so the first requests validate at full speed (src/workers/validation.task.ts, warm).
    const warming = Date.now();
    await services.cpu.warm().then(
      () => logger.info({ ms: Date.now() - warming, threads: services.cpu.threads }, 'worker threads warmed'),
      (error: unknown) => logger.warn({ err: error }, 'worker thread warm-up failed'),
    );
    const server = await startHttpServer(services, { port: settings.port, host: settings.host });
    stops.push(server.close);
    logger.info({ url: `http://localhost:${settings.port}`, role: settings.role }, 'listening');
  }
}

main().catch(async (error: unknown) => {
  if (startedLogger) await stopAll(startedLogger);
  // A port in use is an operator's mistake with a one-line fix: no stack trace.
  if (error instanceof PortInUse) console.error(`sdc-gateway: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
