import 'reflect-metadata';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { measure, type Measured } from './service-process';
import { loadSettings, type Settings } from '../src/config';
import { createServices, type Services } from '../src/container';
import { openDatabase } from '../src/db/connect';
import { createDataSource } from '../src/db/data-source';
import { freePort } from '../src/db/embedded-postgres';
import { migrateDatabase } from '../src/db/migrate';
import { JobEventHub } from '../src/jobs/job-events';
import { JobQueue } from '../src/jobs/queue';
import { startMaintenance } from '../src/jobs/maintenance';
import { QUEUES, startWorkers } from '../src/jobs/workers';
import { createLogger } from '../src/lib/logger';
import { startHttpServer } from '../src/server';

export interface BenchService {
  url: string;
  services: Services;
  /** The database the service runs on, for worker processes started beside it. */
  databaseUrl: string;
  close: () => Promise<void>;
}

/** The real service in this process, on DATABASE_URL or a fresh embedded Postgres in a temp directory.
 * `workers: false` serves as ROLE=gateway does: queued jobs wait for workers started elsewhere. */
export async function startBenchService(overrides: Partial<Settings> = {}, options: { workers?: boolean } = {}): Promise<BenchService> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-bench-'));
  // mkdtemp makes it 0700; the embedded Postgres runs as the postgres user and must enter it.
  await chmod(dir, 0o755);
  const settings: Settings = {
    ...loadSettings(),
    embeddedPgDir: path.join(dir, 'pg'),
    storageDir: path.join(dir, 'storage'),
    logLevel: 'silent',
    ...overrides,
  };
  // The port is chosen first: services build their absolute URLs (Links) from publicBaseUrl when created.
  const port = await freePort();
  settings.publicBaseUrl = `http://127.0.0.1:${port}`;
  const logger = createLogger('silent');
  const database = await openDatabase(settings, logger);
  await migrateDatabase(database.url);
  const db = createDataSource(database.url, 40);
  await db.initialize();
  const queue = await JobQueue.start(database.url, {
    queues: QUEUES,
    supervise: true,
    expireInSeconds: settings.jobExpireSeconds,
    maintenanceIntervalSeconds: settings.queueMaintenanceSeconds,
    onError: () => undefined,
  });
  const events = new JobEventHub(database.url, logger);
  await events.start();
  const services = createServices({ settings, db, logger, queue, events });
  let stopMaintenance: () => Promise<void> = async () => undefined;
  if (options.workers !== false) {
    await startWorkers(services);
    stopMaintenance = startMaintenance(services, 'worker');
  }
  const server = await startHttpServer(services, { port, host: '127.0.0.1' });
  return {
    url: server.url,
    services,
    databaseUrl: database.url,
    close: async () => {
      await server.close();
      await stopMaintenance();
      await queue.stop();
      await events.stop();
      await db.destroy();
      await database.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type LoadResult = Measured & { peakRssMb: number };

/** autocannon against one endpoint (bench/service-process.ts `measure`); peak RSS of this process (the service
 * runs in it) sampled meanwhile. */
export async function load(
  name: string,
  options: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; connections: number; durationSeconds: number },
): Promise<LoadResult> {
  const { durationSeconds, ...request } = options;
  const measured = await measure(name, { ...request, seconds: durationSeconds, pid: process.pid });
  return { ...measured, peakRssMb: measured.peakRssMb ?? 0 };
}

export function printTable(rows: Array<Record<string, unknown>>): void {
  console.table(rows);
}
