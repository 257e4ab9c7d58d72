import { createHash } from 'node:crypto';
import { STORAGE_AREAS, type Storage, type StorageArea } from './storage';

export interface CopyReport {
  copied: number;
  unchanged: number;
  bytes: number;
  areas: Record<StorageArea, number>;
}

async function sha256Of(storage: Storage, area: StorageArea, name: string): Promise<string | null> {
  const stream = await storage.get(area, name);
  if (!stream) return null;
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies every stored file of `from` into `to` under the same area and name. Idempotent: a name `to` already holds
 * with the same content is left alone, so a second run copies nothing; `from` is never changed. */
export async function copyStorage(from: Storage, to: Storage): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, unchanged: 0, bytes: 0, areas: { zip: 0, dmlib: 0, packages: 0, apps: 0 } };
  for (const area of STORAGE_AREAS) {
    const present = new Map((await to.list(area)).map((entry) => [entry.name, entry.sha256]));
    for (const entry of await from.list(area)) {
      report.areas[area]++;
      if (present.has(entry.name)) {
        const target = present.get(entry.name) ?? (await sha256Of(to, area, entry.name));
        if (target !== null && target === (entry.sha256 ?? (await sha256Of(from, area, entry.name)))) {
          report.unchanged++;
          continue;
        }
      }
      const source = await from.get(area, entry.name);
      if (!source) continue;
      const { size } = await to.put(area, entry.name, source);
      report.copied++;
      report.bytes += size;
    }
  }
  return report;
}
