import type { Settings } from '../config';
import type { Services } from '../container';
import { VaasPackages } from '../services/vaas-packages';
import { JobEventsRetention } from './job-events-retention';

type Role = Settings['role'];

/** One periodic task: when and where it runs here; its body stays with the module that owns the rule. */
interface MaintenanceTask {
  /** Names the task in logs. */
  name: string;
  /** Where the body lives. */
  owner: string;
  /** Milliseconds between runs. */
  everyMs: (settings: Settings) => number;
  /** Also run once at start-up (a node restarted more often than the interval still runs it). */
  atStart: boolean;
  /** The roles whose processes run it. */
  roles: readonly Role[];
  /** One run; returns how many things it did. */
  run: (services: Services) => Promise<number>;
  /** Logged (with the count) after a run that did something. */
  didSomething: string;
}

const WORKERS: readonly Role[] = ['worker', 'all'];
const MINUTE_MS = 60_000;

/** Every periodic task of the service. Each is safe to run on several nodes at once (its queries take their rows
 * atomically), and a run is skipped while the previous one of the same task is still going. Socket pings
 * (http/graphql-socket.ts) and the key-use flush (services/key-cache.ts) are per-connection and per-cache timers,
 * not listed here. */
export const MAINTENANCE: readonly MaintenanceTask[] = [
  {
    name: 'lost jobs and their holds',
    owner:
      'services/jobs.service.ts failLostJobs, then services/ledger.service.ts releaseEndedJobHolds (job holds, request holds past REQUEST_HOLD_TTL_SECONDS)',
    everyMs: () => 30_000,
    atStart: false,
    roles: WORKERS,
    run: (services) => services.jobs.failLostJobs(),
    didSomething: 'jobs whose task failed for good marked failed',
  },
  {
    name: 'rdf resync',
    owner: 'services/instances.service.ts resyncWaiting',
    everyMs: (settings) => settings.rdfResyncSeconds * 1000,
    atStart: false,
    roles: [...WORKERS, 'app'],
    run: (services) => services.app.instances.resyncWaiting(),
    didSomething: 'triplestore answers again: waiting instances queued',
  },
  {
    name: 'job events retention',
    owner: 'jobs/job-events-retention.ts',
    everyMs: () => 5 * MINUTE_MS,
    atStart: true,
    roles: WORKERS,
    run: (services) => new JobEventsRetention(services.db, services.clock, services.settings.jobEventsRetentionDays).run(),
    didSomething: 'job events past their retention deleted',
  },
  {
    name: 'storage gc',
    owner: 'storage (Storage.gc: postgres: blobs nothing references)',
    everyMs: () => 15 * MINUTE_MS,
    atStart: false,
    roles: WORKERS,
    run: (services) => services.app.storage.gc(services.settings.storageGcGraceSeconds * 1000),
    didSomething: 'unreferenced stored blobs collected',
  },
  {
    name: 'expired vaas packages',
    owner: 'services/vaas-packages.ts sweep',
    everyMs: () => MINUTE_MS,
    atStart: false,
    // The processes that serve VaaS, which stores the packages.
    roles: ['gateway', 'all'],
    run: (services) =>
      new VaasPackages(services.db, services.clock, services.links, services.app.storage, services.settings.vaas.packageTtlSeconds).sweep(),
    didSomething: 'expired vaas packages removed',
  },
];

/** Starts the tasks this role runs; returns the step that stops them. */
export function startMaintenance(services: Services, role: Role): () => Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  for (const task of MAINTENANCE.filter((t) => t.roles.includes(role))) {
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      task
        .run(services)
        .then((count) => count && services.logger.info({ task: task.name, count }, task.didSomething))
        .catch((error: unknown) => services.logger.warn({ err: error, task: task.name }, `${task.name} failed`))
        .finally(() => (running = false));
    };
    if (task.atStart) timers.push(setTimeout(tick, 0).unref());
    timers.push(setInterval(tick, task.everyMs(services.settings)).unref());
  }
  return async () => {
    for (const timer of timers) clearInterval(timer);
  };
}
