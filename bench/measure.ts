import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Services } from '../src/container';
import { parseCreateKey } from '../src/parsers/keys.parser';

export type Summary = { runs: number; medianMs: number; p99Ms: number; minMs: number; maxMs: number };

const round = (ms: number) => Number(ms.toFixed(1));

/** Nearest-rank percentile of already measured durations. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(values: number[]): Summary {
  return {
    runs: values.length,
    medianMs: round(percentile(values, 50)),
    p99Ms: round(percentile(values, 99)),
    minMs: round(Math.min(...values)),
    maxMs: round(Math.max(...values)),
  };
}

/** Peak RSS of this process (where the service runs) while `fn` runs, sampled every 100 ms. */
export async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakRssMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(sampler);
  }
}

/** Peak RSS of another process over its life (the kernel's high-water mark, VmHWM). */
export function processPeakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Calls `fn` `runs` times one after another (after `warmup` unmeasured calls) and returns each duration. */
export async function sequential(runs: number, warmup: number, fn: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** Runs `fn(i)` for i in [0, count) with at most `concurrency` calls in flight. */
export async function pool(count: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** A user with a key holding every scope (read, build, spend) and a wallet credited with `credits`. */
export async function benchCaller(services: Services, credits: number): Promise<{ userId: number; key: string }> {
  const user = await services.users.create({ email: `bench-${randomBytes(4).toString('hex')}@example.org`, password: 'bench-password' });
  const { key: plaintext } = await services.keys.create(user.id, parseCreateKey({ name: 'bench' }));
  if (credits > 0) await services.ledger.credit(user.id, credits, 'bench credits');
  return { userId: user.id, key: plaintext };
}

/** Published library components to reuse, made in one transaction. */
export async function publishedComponents(services: Services, count: number): Promise<string[]> {
  return services.db.transaction(async (manager) => {
    const ctIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const made = await services.catalog.createComponent(manager, {
        label: `Bench reusable ${i}`,
        dataType: i % 2 ? 'XdCount' : 'XdString',
        description: null,
        units: i % 2 ? 'items' : null,
        status: 'published',
        ownerId: null,
      });
      ctIds.push(made.ctId);
    }
    return ctIds;
  });
}

/** POSTs JSON with a key and returns the parsed body (the caller names its shape); throws on an unexpected status. */
export async function postJson<T = unknown>(url: string, key: string, body: unknown, expected: number[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as T;
}
