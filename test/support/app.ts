import 'reflect-metadata';
import { loadSettings, type Settings } from '../../src/config';
import { createServices, type Services } from '../../src/container';
import { createDataSource } from '../../src/db/data-source';
import { freePort } from '../../src/db/embedded-postgres';
import { JobEventHub } from '../../src/jobs/job-events';
import { JobQueue } from '../../src/jobs/queue';
import { startMaintenance } from '../../src/jobs/maintenance';
import { QUEUES, startWorkers } from '../../src/jobs/workers';
import { createLogger } from '../../src/lib/logger';
import { startHttpServer } from '../../src/server';
import type { Clock } from '../../src/services/clock';
import { createTestDatabase } from './database';

/** A clock tests can move: key expiry and throttling windows without sleeping. */
class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestApp {
  url: string;
  services: Services;
  clock: TestClock;
  databaseUrl: string;
  close: () => Promise<void>;
}

/** The real service (HTTP + GraphQL, queue, workers) on a fresh database cloned from the migrated template.
 * `workers: false` leaves queued jobs for a worker started elsewhere (e.g. a subprocess). */
export async function startTestApp(overrides: Partial<Settings> = {}, options: { workers?: boolean } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const cleanups: Array<() => Promise<unknown>> = [() => database.drop()];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    // The port is chosen first: services build their absolute URLs (Links) from publicBaseUrl when created.
    const port = await freePort();
    const settings: Settings = {
      ...loadSettings({}),
      databaseUrl: database.url,
      logLevel: 'silent',
      publicBaseUrl: `http://127.0.0.1:${port}`,
      ...overrides,
    };
    const db = createDataSource(database.url, 30);
    await db.initialize();
    cleanups.push(() => db.destroy());
    const clock = new TestClock();
    const logger = createLogger('silent');
    const queue = await JobQueue.start(database.url, {
      queues: QUEUES,
      supervise: true,
      expireInSeconds: settings.jobExpireSeconds,
      maintenanceIntervalSeconds: settings.queueMaintenanceSeconds,
      onError: () => undefined,
    });
    cleanups.push(() => queue.stop());
    const events = new JobEventHub(database.url, logger);
    await events.start();
    cleanups.push(() => events.stop());
    const services = createServices({ settings, db, logger, queue, events, clock });
    if (options.workers !== false) {
      await startWorkers(services);
      cleanups.push(startMaintenance(services, 'worker'));
    }
    const server = await startHttpServer(services, { port, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    return {
      url: server.url,
      services,
      clock,
      databaseUrl: database.url,
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
