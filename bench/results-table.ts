/** bench/results.md: one readable table of a `npm run bench` run, built from the per-feature results. */

type Result = Record<string, any>;
/** `earlierRunAt`: not run this time (`--only`), its figures are the last recorded ones, of that time. */
export type FeatureOutcome = { name: string; seconds: number; result?: Result; error?: string; earlierRunAt?: string };

interface Row {
  feature: string;
  measure: string;
  rate?: string;
  p50?: number | string;
  p99?: number | string;
  rss?: number | string;
}

const n = (value: unknown) => (typeof value === 'number' ? value.toLocaleString('en-US') : '—');

function loadRow(feature: string, load: Result | undefined, measure = load?.name): Row {
  if (!load) return { feature, measure: `${measure}: not in the result` };
  const failures = load.errors || load.non2xx ? ` (errors ${load.errors}, non-2xx ${load.non2xx})` : '';
  return {
    feature,
    measure: `${measure}${failures}`,
    rate: `${n(load.requestsPerSecond)} req/s`,
    p50: load.p50Ms,
    p99: load.p99Ms,
    rss: load.peakRssMb,
  };
}

function rows(name: string, r: Result): { rows: Row[]; ratios: string[] } {
  switch (name) {
    case 'hotPaths':
      return {
        rows: ['bare', 'healthz', 'whoami', 'studio', 'validate'].map((k) => loadRow('Hot paths (issue 19), c=16', r[k])),
        ratios: [
          `/healthz / bare Node http: **${r.ratios.healthzOverBare}×**; studio key GET / healthz: **${r.ratios.studioOverHealthz}×**; Interface B no-op / healthz: **${r.ratios.whoamiOverHealthz}×**; validate/xml / Interface B no-op: **${r.ratios.validateOverWhoami}×**`,
        ],
      };
    case 'auth':
      return {
        rows: [loadRow('Authenticated request overhead', r.healthz), loadRow('Authenticated request overhead', r.authenticated)],
        ratios: [`healthz / key-authenticated GET throughput: **${r.throughputRatio}×**`],
      };
    case 'estimate': {
      const sizes = (r.sequential as Result[]).map((s) => ({
        feature: 'Estimate',
        measure: `${n(s.leaves)} leaves (half reused), sequential, ${s.runs} runs`,
        p50: s.medianMs,
        p99: s.p99Ms,
        rss: s.peakRssMb,
      }));
      return {
        rows: [loadRow('Estimate', r.twentyLeaves), ...sizes],
        ratios: [`estimate median ${n(r.largestTreeLeaves)} leaves / 1,000 leaves: **${r.growth10kOver1k}×** (linear ≈ 10×; the issue allows ≤ 12×)`],
      };
    }
    case 'assemble':
      return { rows: [loadRow('Reuse assemble', r.reuseAssemble)], ratios: [] };
    case 'jobs': {
      const g = r.generateJobs;
      const b = r.barePgBoss;
      return {
        rows: [
          {
            feature: 'Mixed assembly (10 new)',
            measure: `POST → 202, ${r.mixedAssembly.accepted202.runs} runs`,
            p50: r.mixedAssembly.accepted202.medianMs,
            p99: r.mixedAssembly.accepted202.p99Ms,
          },
          {
            feature: 'Mixed assembly (10 new)',
            measure: 'POST → `completed` received over graphql-ws (workers in-process)',
            p50: r.mixedAssembly.endToEnd.medianMs,
            p99: r.mixedAssembly.endToEnd.p99Ms,
            rss: r.mixedAssembly.peakRssMb,
          },
          {
            feature: 'Mixed assembly (10 new)',
            measure: 'of which: job row written → worker took it (queue pickup)',
            p50: r.mixedAssembly.queuePickup?.medianMs,
            p99: r.mixedAssembly.queuePickup?.p99Ms,
          },
          {
            feature: 'Subscription latency',
            measure: `job step written → subscriber received, ${r.subscriptionLatency.samples} steps`,
            p50: r.subscriptionLatency.p50Ms,
            p99: r.subscriptionLatency.p99Ms,
          },
          {
            feature: 'Generate jobs',
            measure: `${n(g.jobs)} generate_package jobs, 2 worker processes (failed: ${g.failed})`,
            rate: `${g.jobsPerSecond} jobs/s`,
            rss: `workers ${g.workerPeakRssMb.join(' / ')}`,
          },
          ...(g.idlePickup
            ? [
                {
                  feature: 'Generate jobs',
                  measure: `job row written → idle worker in another process took it, ${g.idlePickup.runs} sends`,
                  p50: g.idlePickup.medianMs,
                  p99: g.idlePickup.p99Ms,
                },
              ]
            : []),
          {
            feature: 'Generate jobs',
            measure: `bare pg-boss no-op loop, 2 processes, same polling`,
            rate: `${b.jobsPerSecond} jobs/s`,
            rss: `workers ${b.workerPeakRssMb.join(' / ')}`,
          },
        ],
        ratios: [
          `bare pg-boss / generate jobs throughput: **${r.bareOverGenerateRatio}×** (bare pg-boss sleeps out its polling interval after each fetch, a ceiling of ${g.pollingCeilingJobsPerSecond} jobs/s; the service's workers are woken at commit and fetch again while there is work); time a job is held, generate / no-op: **${r.generateOverBareHeldRatio}×** (${g.meanJobMs} ms / ${b.meanJobMs} ms)`,
        ],
      };
    }
    case 'validate': {
      const sixteen = (r.http as Result[]).find((row) => String(row.name).includes('validate') && String(row.name).endsWith('c=16'));
      const noop = (r.http as Result[]).find((row) => String(row.name).includes('whoami'));
      return {
        rows: [loadRow('Validate XML', sixteen), loadRow('Validate XML', noop)],
        ratios:
          noop && sixteen
            ? [`authenticated no-op / validate/xml throughput at c=16: **${(noop.requestsPerSecond / sixteen.requestsPerSecond).toFixed(2)}×**`]
            : [],
      };
    }
    case 'rdfSync':
      return {
        rows: [r.direct, r.queue].map((p: Result) => ({
          feature: 'RDF sync to Virtuoso',
          measure: `${p.path}, ${p.instances} instances of ${r.triplesPerInstance} triples`,
          rate: `${p.instancesPerSecond} graphs/s (${n(p.triplesPerSecond)} triples/s)`,
          rss: p.peakRssMb,
        })),
        ratios: [`direct sync / queue-driven sync rate: **${r.directOverQueueRatio}×**`],
      };
    case 'package':
      return {
        rows: (r.sizes as Result[]).map((s) => ({
          feature: 'Package generation',
          measure: `${n(s.components)} components, in memory, ${s.runs} runs`,
          p50: s.medianMs,
        })),
        ratios: [`package generation 1,000 / 100 components: **${r.timeGrowth100To1000}×** (linear ≈ 10×)`],
      };
    case 'tenantFlood':
      return {
        rows: (['health', 'wallet', 'vaas'] as const).flatMap((k) => [
          { feature: 'Tenant flood (issue 30)', measure: `victim ${k}, quiet service`, p50: r.baseline[k].p50, p99: r.baseline[k].p99 },
          {
            feature: 'Tenant flood (issue 30)',
            measure: `victim ${k}, under every attack (${r.scale} scale, ${r.attackSeconds} s)`,
            p50: r.attack[k].p50,
            p99: r.attack[k].p99,
          },
        ]),
        ratios: (r.goals as Result[]).map(
          (g) => `${g.figure}: **${g.valueMs} ms** (goal < ${g.goalMs} ms on an idle machine: ${g.met ? 'met' : 'not met'})`,
        ),
      };
    default:
      return { rows: [{ feature: name, measure: JSON.stringify(r).slice(0, 200) }], ratios: [] };
  }
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return text.replace(/\|/g, '\\|');
}

export function resultsMarkdown(
  outcomes: FeatureOutcome[],
  meta: { at: string; mode: string; cpus: number; loadAverage?: number; node: string; totalSeconds: number },
): string {
  const table: Row[] = [];
  const ratios: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.error || !outcome.result) {
      table.push({ feature: outcome.name, measure: `not measured: ${outcome.error ?? 'no result'}` });
      continue;
    }
    const part = rows(outcome.name, outcome.result);
    const earlier = outcome.earlierRunAt ? ` (earlier run, ${outcome.earlierRunAt.slice(0, 16).replace('T', ' ')})` : '';
    table.push(...part.rows.map((row) => ({ ...row, feature: `${row.feature}${earlier}` })));
    ratios.push(...part.ratios.map((ratio) => `${ratio}${earlier}`));
  }
  const hot = outcomes.find((o) => o.name === 'hotPaths')?.result;
  const goals = (hot?.goals as Result[] | undefined) ?? [];
  const lines = [
    '# Benchmark results',
    '',
    `Run ${meta.at}, ${meta.mode} mode, ${meta.cpus} CPUs${meta.loadAverage === undefined ? '' : ` (load average ${meta.loadAverage} at the start)`}, Node ${meta.node}, ${Math.round(meta.totalSeconds)} s in all. Figures from one noisy run:`,
    'compare the ratios below, not absolute times across runs or machines (bench/README.md).',
    '',
    '| Feature | Measure | Rate | p50 ms | p99 ms | Peak RSS MB |',
    '|---|---|---|---|---|---|',
    ...table.map((r) => `| ${cell(r.feature)} | ${cell(r.measure)} | ${cell(r.rate)} | ${cell(r.p50)} | ${cell(r.p99)} | ${cell(r.rss)} |`),
    '',
    ...(goals.length
      ? [
          '## Issue 19 goals (from this one run)',
          '',
          '| Figure | This run | Goal | Met |',
          '|---|---|---|---|',
          ...goals.map((g) => `| ${cell(g.figure)} | ${cell(g.value)} | ${cell(g.goal)} | ${g.met ? 'yes' : 'no'} |`),
          '',
        ]
      : []),
    '## Ratios (from this one run)',
    '',
    ...ratios.map((r) => `- ${r}`),
    '',
    `Per feature wall time: ${outcomes
      .filter((o) => !o.earlierRunAt)
      .map((o) => `${o.name} ${Math.round(o.seconds)} s`)
      .join(', ')}.`,
    '',
  ];
  return lines.join('\n');
}
