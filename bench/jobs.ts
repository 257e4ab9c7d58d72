import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import PgBoss from 'pg-boss';
import type { Services } from '../src/container';
import { one, rows } from '../src/db/sql';
import { parseAssemblyRequest } from '../src/parsers/assembly.parser';
import { DATA_TYPES } from '../src/domain/model-tree';
import { QUEUE_SCHEMA } from '../src/db/queues';
import { benchCaller, percentile, pool, postJson, processPeakRssMb, publishedComponents, summarize, withPeakRss } from './measure';
import { recordResults } from './results';
import { printTable, startBenchService, type BenchService } from './support';
import { JobSubscriptions } from './ws-client';

const MAIN = path.resolve(__dirname, '../src/main.js');
const BOSS_WORKER = path.resolve(__dirname, 'boss-worker.js');
const NEW_COMPONENTS = 10;
/** Generate jobs sent one at a time to the gateway while the worker processes sit idle: cross-process pickup. */
const IDLE_SENDS = 30;
const BARE_SCHEMA = 'bench_boss';
const BARE_QUEUE = 'bench_noop';

function mixedBody(run: number): Record<string, unknown> {
  const components = Array.from({ length: NEW_COMPONENTS }, (_, i) => ({
    label: `Run ${run} field ${i}`,
    data_type: DATA_TYPES[i % DATA_TYPES.length],
    description: `What field ${i} of run ${run} records.`,
  }));
  return { title: `Mixed bench ${run}`, data: { label: 'Bench root', components } };
}

/** (a) and (c): POST assemble/ with 10 new components (publish and generate as by default), followed over one
 * graphql-ws connection with jobUpdated(ctId) until `completed`; the service works jobs in-process (ROLE=all).
 * The queue pickup (job row stamped → pg-boss started it) is reported apart from the end-to-end time.
 * Every state after the first (the current state sent on subscribing) gives one delivery sample: received
 * minus the row's `updated`, which the worker stamps just before writing the step. */
async function mixedAssembly(runs: number) {
  const service = await startBenchService();
  try {
    const { key } = await benchCaller(service.services, (runs + 10) * (500 + NEW_COMPONENTS * 100));
    const subscriptions = new JobSubscriptions(service.url, key);
    const url = `${service.url}/api/v1/dmgen/assemble/`;
    const accepted: number[] = [];
    const endToEnd: number[] = [];
    const measured: string[] = [];
    const delivery: number[] = [];
    const once = async (run: number, record: boolean) => {
      const start = performance.now();
      const answer = await postJson<{ job_ct_id: string }>(url, key, mixedBody(run), [202]);
      const answeredAt = performance.now();
      const items = await subscriptions.follow(answer.job_ct_id);
      const last = items[items.length - 1];
      if (last?.job.status !== 'completed') throw new Error(`job ${answer.job_ct_id} ended ${JSON.stringify(last?.job)}`);
      if (!record) return;
      measured.push(answer.job_ct_id);
      accepted.push(answeredAt - start);
      endToEnd.push(last.receivedPerfMs - start);
      for (const item of items.slice(1)) delivery.push(item.receivedAtMs - Date.parse(item.job.updated));
    };
    const { peakRssMb } = await withPeakRss(async () => {
      for (let run = 0; run < 3; run++) await once(run, false);
      for (let run = 3; run < runs + 3; run++) await once(run, true);
    });
    await subscriptions.close();
    const pickup = await queuePickupMs(service, measured);
    return {
      mixedAssembly: {
        newComponents: NEW_COMPONENTS,
        accepted202: summarize(accepted),
        queuePickup: summarize(pickup),
        endToEnd: summarize(endToEnd),
        peakRssMb,
      },
      subscriptionLatency: {
        samples: delivery.length,
        p50Ms: percentile(delivery, 50),
        p99Ms: percentile(delivery, 99),
        maxMs: Math.max(...delivery),
      },
    };
  } finally {
    await service.close();
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Jobs/s as pg-boss itself saw them: completed jobs over the span from the first start to the last completion
 * (worker start-up and enqueueing excluded, the same window for the service and the bare loop), and the mean
 * time a handler held a job. */
async function bossRate(services: Services, schema: string, queue: string) {
  const row = await one<{ n: string; seconds: string; held: string }>(
    services.db,
    `SELECT count(*) AS n, extract(epoch FROM max(completed_on) - min(started_on)) AS seconds,
            avg(extract(epoch FROM completed_on - started_on)) * 1000 AS held FROM (
       SELECT started_on, completed_on FROM ${schema}.job WHERE name = $1 AND state = 'completed'
       UNION ALL SELECT started_on, completed_on FROM ${schema}.archive WHERE name = $1 AND state = 'completed') t`,
    [queue],
  );
  const completed = Number(row!.n);
  const seconds = Number(row!.seconds);
  return {
    completed,
    seconds: Number(seconds.toFixed(2)),
    jobsPerSecond: Number((completed / seconds).toFixed(1)),
    meanJobMs: Number(Number(row!.held).toFixed(1)),
  };
}

async function stopProcesses(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => (clearTimeout(force), resolve()));
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Queue pickup of each job: its row stamped → pg-boss started it (ms). */
async function queuePickupMs(service: BenchService, ctIds: string[]): Promise<number[]> {
  const found = await rows<{ ms: number }>(
    service.services.db,
    `SELECT (extract(epoch FROM q.started_on - j.created_at) * 1000)::float8 AS ms FROM jobs j
       JOIN (SELECT id, started_on FROM ${QUEUE_SCHEMA}.job UNION ALL SELECT id, started_on FROM ${QUEUE_SCHEMA}.archive) q ON q.id::text = j.task_id
      WHERE j.ct_id = ANY($1)`,
    [ctIds],
  );
  return found.map((p) => p.ms);
}

/** Sends one generate job per model, one at a time at uneven gaps (never in step with a polling interval), each
 * once the one before has completed; returns job row written → pg-boss started_on. */
async function pickupWhileIdle(service: BenchService, key: string, models: string[]) {
  const sent: string[] = [];
  for (const model of models) {
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
    const answer = await postJson<{ job_ct_id: string }>(`${service.url}/api/v1/dmgen/dms/${model}/generate/?async=1`, key, {}, [202]);
    sent.push(answer.job_ct_id);
    const done = async () =>
      (await one<{ status: string }>(service.services.db, 'SELECT status FROM jobs WHERE ct_id = $1', [answer.job_ct_id]))!.status === 'completed';
    await until(done, 60_000, `generate job ${answer.job_ct_id}`, 10);
  }
  return summarize(await queuePickupMs(service, sent));
}

/** Published models of five reused components each, owned by `userId`, without packages. */
async function publishedModels(services: Services, userId: number, count: number): Promise<string[]> {
  const reusable = await publishedComponents(services, 5);
  const ctIds: string[] = [];
  for (let start = 0; start < count; start += 100) {
    await services.db.transaction(async (manager) => {
      for (let i = start; i < Math.min(count, start + 100); i++) {
        const request = parseAssemblyRequest({
          title: `Generate bench ${i}`,
          data: { label: `Model ${i}`, components: reusable.map((ct_id) => ({ ct_id })) },
        });
        ctIds.push((await services.builder.build(manager, request, userId, { publish: true })).dmCtId);
      }
    });
  }
  return ctIds;
}

/** (b): `count` generate_package jobs (one per published model: a package is generated once) queued through
 * POST generate/?async=1 on a gateway that works no jobs, then worked by two `ROLE=worker` processes; then, with
 * those workers idle, IDLE_SENDS more sent one at a time (job row written → a worker in the other process took
 * it); beside it the same number of no-op jobs through bare pg-boss (its own schema, same database) with two
 * worker processes. */
async function generateThroughput(count: number) {
  const service = await startBenchService({}, { workers: false });
  const children: ChildProcess[] = [];
  try {
    const { services } = service;
    const { userId, key } = await benchCaller(services, 0);
    const models = await publishedModels(services, userId, count + IDLE_SENDS);
    // Bare pg-boss 10 waits out its polling interval (0.5 s) after every fetch, fruitful or not: each worker loop
    // takes at most two jobs a second. The service's loops fetch again at once after a job, so it is not bound.
    const pollingCeiling = 2 * services.settings.workerConcurrency * 2;
    const enqueueStart = performance.now();
    const { peakRssMb: gatewayPeakRssMb } = await withPeakRss(() =>
      pool(count, 8, async (i) => {
        await postJson(`${service.url}/api/v1/dmgen/dms/${models[i]}/generate/?async=1`, key, {}, [202]);
      }),
    );
    const enqueueSeconds = (performance.now() - enqueueStart) / 1000;

    const spawnedAt = performance.now();
    const env = {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: service.databaseUrl,
      STORAGE_DIR: services.settings.storageDir,
      SCHEMA_CATALOG_DIR: services.settings.schemaCatalogDir,
      PUBLIC_BASE_URL: service.url,
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) children.push(spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'inherit', 'inherit'] }));
    const finished = async () => {
      const row = await one<{ n: string }>(
        services.db,
        `SELECT count(*) AS n FROM jobs WHERE kind = 'generate_package' AND status IN ('completed', 'failed')`,
      );
      return Number(row!.n) >= count;
    };
    await until(finished, 10 * 60_000, `${count} generate jobs`);
    const wallSeconds = (performance.now() - spawnedAt) / 1000;
    const failed = Number((await one<{ n: string }>(services.db, `SELECT count(*) AS n FROM jobs WHERE status = 'failed'`))!.n);
    const generate = await bossRate(services, QUEUE_SCHEMA, 'generate_package');
    const idlePickup = await pickupWhileIdle(service, key, models.slice(count));
    const workerPeakRssMb = children.map((child) => processPeakRssMb(child.pid!));
    await stopProcesses(children.splice(0));

    const boss = new PgBoss({ connectionString: service.databaseUrl, schema: BARE_SCHEMA, supervise: false, schedule: false, max: 8 });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue(BARE_QUEUE);
    const sendStart = performance.now();
    await pool(count, 8, async (i) => {
      await boss.send(BARE_QUEUE, { i });
    });
    const sendSeconds = (performance.now() - sendStart) / 1000;
    await boss.stop({ graceful: false, wait: true });
    for (let i = 0; i < 2; i++) {
      children.push(
        spawn(process.execPath, [BOSS_WORKER, service.databaseUrl, BARE_SCHEMA, BARE_QUEUE], { stdio: ['ignore', 'inherit', 'inherit'] }),
      );
    }
    await until(async () => (await bossRate(services, BARE_SCHEMA, BARE_QUEUE)).completed >= count, 5 * 60_000, `${count} bare jobs`);
    const bareWorkerPeakRssMb = children.map((child) => processPeakRssMb(child.pid!));
    await stopProcesses(children.splice(0));
    const bare = await bossRate(services, BARE_SCHEMA, BARE_QUEUE);

    return {
      generateJobs: {
        kind: 'generate_package',
        jobs: count,
        failed,
        enqueuePerSecond: Math.round(count / enqueueSeconds),
        ...generate,
        idlePickup,
        wallSecondsWithWorkerStartup: Number(wallSeconds.toFixed(2)),
        pollingCeilingJobsPerSecond: pollingCeiling,
        gatewayPeakRssMb,
        workerPeakRssMb,
      },
      barePgBoss: { jobs: count, sendPerSecond: Math.round(count / sendSeconds), ...bare, workerPeakRssMb: bareWorkerPeakRssMb },
      bareOverGenerateRatio: Number((bare.jobsPerSecond / generate.jobsPerSecond).toFixed(2)),
      generateOverBareHeldRatio: Number((generate.meanJobMs / bare.meanJobMs).toFixed(1)),
    };
  } finally {
    await stopProcesses(children);
    await service.close();
  }
}

/** bench:jobs — (a) mixed assembly end to end, (b) generate jobs/s with two worker processes beside bare pg-boss,
 * (c) job step → subscriber latency. */
export async function benchJobs(options: { quick?: boolean } = {}): Promise<Record<string, unknown>> {
  const quick = options.quick ?? false;
  const mixed = await mixedAssembly(quick ? 50 : 200);
  printTable([
    { measure: 'POST assemble/ → 202', ...mixed.mixedAssembly.accepted202 },
    { measure: 'job row written → worker took it (pg-boss started_on)', ...mixed.mixedAssembly.queuePickup },
    { measure: 'POST assemble/ → completed received', ...mixed.mixedAssembly.endToEnd, peakRssMb: mixed.mixedAssembly.peakRssMb },
  ]);
  console.log('step written → subscriber received (ms):', mixed.subscriptionLatency);
  const queue = await generateThroughput(quick ? 200 : 1000);
  printTable([
    { measure: `generate job row written → worker in another process took it (idle workers, ${IDLE_SENDS} sends)`, ...queue.generateJobs.idlePickup },
  ]);
  const { idlePickup: _, ...generateJobs } = queue.generateJobs;
  printTable([
    { loop: 'generate_package jobs (2 worker processes)', ...generateJobs, workerPeakRssMb: queue.generateJobs.workerPeakRssMb.join(' / ') },
    { loop: 'bare pg-boss no-op (2 processes)', ...queue.barePgBoss, workerPeakRssMb: queue.barePgBoss.workerPeakRssMb.join(' / ') },
  ]);
  console.log(
    `bare pg-boss / generate jobs: ${queue.bareOverGenerateRatio}× in jobs/s; a generate job is held ${queue.generateOverBareHeldRatio}× as long as a no-op`,
  );
  return { ...mixed, ...queue };
}

if (require.main === module) {
  benchJobs({ quick: process.argv.includes('--quick') })
    .then((result) => recordResults('jobs', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
