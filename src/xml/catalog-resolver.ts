import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lastSegment, type SchemaResolver } from './schema-set';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FETCH_TIMEOUT_MS = 10_000;
const FETCH_MAX_BYTES = 8 * 1024 * 1024;

/** include/import resolution: the stored dmlib first, then the local catalog directory (an absolute URL maps to
 * the file there named by its last path segment), then the stored reference schemas (allow-listed URLs, fetched
 * once), then, only when `fetchAllowed`, the network (each URL fetched once, failures retried). The catalog
 * directory is this node's read-only configuration (shipped schemas): each name is read once, found or not. */
export function catalogResolver(opts: {
  dmlib: (name: string) => Promise<string | null>;
  catalogDir: string;
  fetchAllowed: boolean;
  reference?: (url: string) => Promise<string | null>;
}): SchemaResolver {
  const catalog = new Map<string, Promise<string | null>>();
  const fetched = new Map<string, Promise<string | null>>();

  const fromCatalog = (name: string): Promise<string | null> => {
    let known = catalog.get(name);
    if (!known) {
      known = readFile(path.join(opts.catalogDir, name), 'utf8').catch(() => null);
      catalog.set(name, known);
    }
    return known;
  };

  return async (location) => {
    const name = lastSegment(location);
    if (!SAFE_NAME.test(name)) return null;
    const stored = (await opts.dmlib(name)) ?? (await fromCatalog(name));
    if (stored !== null) return stored;
    const reference = opts.reference ? await opts.reference(location) : null;
    if (reference !== null) return reference;
    if (!opts.fetchAllowed || !/^https?:\/\//i.test(location)) return null;
    let pending = fetched.get(location);
    if (!pending) {
      pending = fetchSchema(location);
      fetched.set(location, pending);
      void pending.then((text) => text === null && fetched.delete(location));
    }
    return pending;
  };
}

async function fetchSchema(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
    if (!response.ok) return null;
    const body = await response.arrayBuffer();
    return body.byteLength > FETCH_MAX_BYTES ? null : Buffer.from(body).toString('utf8');
  } catch {
    return null;
  }
}
