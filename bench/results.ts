import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILE = path.resolve(__dirname, '../../bench/results.json');

/** Merges one benchmark's figures into bench/results.json (with the machine's shape and the time of the run). */
export function recordResults(name: string, result: unknown): void {
  const all = (existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : {}) as Record<string, unknown>;
  all[name] = { at: new Date().toISOString(), cpus: os.cpus().length, node: process.version, result };
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
}

/** What bench/results.json holds for `name` from an earlier run (its time and result), if anything. */
export function recordedResult(name: string): { at: string; result: Record<string, unknown> } | null {
  if (!existsSync(FILE)) return null;
  const all = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, { at: string; result: Record<string, unknown> } | undefined>;
  const entry = all[name];
  return entry && !('notMeasured' in entry.result) ? entry : null;
}
