import { timingSafeEqual } from 'node:crypto';
import type { Express, Request } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Services } from '../container';
import { query } from '../db/sql';
import { finishedJobs, instancesByValidationStatus, queueDepth } from '../db/queries/metrics.sql';

export const METRICS_PATH = '/metrics';
const JOBS_PER_SCRAPE = 10_000;

/** Routes outside the REST router (no `req.route`), named by their mount point: never the raw URL, so a label's
 * values stay few whatever paths clients send. */
const MOUNTS = ['/graphql', '/_graphiql', '/api/docs', '/admin'];

/** The route pattern that answered (`/api/v1/jobs/:ctId/`), or its mount point, or `unmatched`. */
function routeLabel(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return pattern;
  const path = req.originalUrl.split('?')[0] ?? '';
  return MOUNTS.find((mount) => path === mount || path.startsWith(`${mount}/`)) ?? 'unmatched';
}

/** Records one finished response. */
export type RecordResponse = (req: Request, status: number, seconds: number) => void;

/** The registry of one HTTP server: requests, queue depth, job durations, the CPU pool and stored validations. */
function createMetrics(services: Services) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'sdc_queue_depth',
    help: 'Queue messages waiting (created, retry) or held by a worker (active), per queue (job kind).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await query(services.db, queueDepth())) this.set({ queue: row.name, state: row.state }, row.count);
    },
  });
  let jobsSince: Date | null = null;
  new Histogram({
    name: 'sdc_job_duration_seconds',
    help: 'Time from queued to finished of each job that finished, by kind and final status (read at each scrape).',
    labelNames: ['kind', 'status'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
    async collect() {
      for (const job of await query(services.db, finishedJobs(jobsSince, JOBS_PER_SCRAPE))) {
        this.observe({ kind: job.kind, status: job.status }, Math.max(0, job.seconds));
        jobsSince = job.updated_at;
      }
    },
  });
  new Gauge({
    name: 'sdc_cpu_pool',
    help: 'The CPU worker-thread pool: threads, queued tasks, completed tasks and utilisation (0..1); 0 until first used.',
    labelNames: ['measure'] as const,
    registers: [registry],
    collect() {
      const stats = services.cpu.stats;
      for (const measure of ['threads', 'queued', 'completed', 'utilization'] as const) this.set({ measure }, stats?.[measure] ?? 0);
    },
  });
  new Gauge({
    name: 'sdc_app_instances',
    help: 'Instances stored by the generated-application API, by validation status (refused ones are 422s of validate/xml).',
    labelNames: ['validation_status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await query(services.db, instancesByValidationStatus())) this.set({ validation_status: row.status }, row.count);
    },
  });

  /** A finished response's route, status and time (the request's one end listener calls it). */
  const record = (req: Request, status: number, seconds: number) => {
    const route = routeLabel(req);
    latency.observe({ method: req.method, route }, seconds);
    requests.inc({ method: req.method, route, status: String(status) });
  };
  return { registry, record };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** METRICS=on: `/metrics` for anyone who reaches the port; `token`: only with `Authorization: Bearer $METRICS_TOKEN`;
 * `off`: not served (404) and nothing measured. Returns what measures each response, or null when off. */
export function mountMetrics(app: Express, services: Services): RecordResponse | null {
  const { metrics, metricsToken } = services.settings;
  if (metrics === 'off') return null;
  const { registry, record } = createMetrics(services);
  app.get(METRICS_PATH, async (req, res) => {
    if (metrics === 'token') {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!metricsToken || !sameSecret(given, metricsToken)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json({ error: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.', error_type: 'not_authenticated' });
        return;
      }
    }
    try {
      const body = await registry.metrics();
      res.type(registry.contentType).send(body);
    } catch (error) {
      services.logger.warn({ err: error }, 'metrics scrape failed');
      res.status(503).type('text/plain').send('metrics unavailable: the database did not answer\n');
    }
  });
  return record;
}
