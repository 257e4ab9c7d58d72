import type { Settings } from '../config';
import { GraphDbClient } from './graphdb-client';
import { GraphStoreClient } from './graph-store-client';
import type { TriplestoreClient } from './triplestore';

/** The external triplestore client the settings describe, or null when TRIPLESTORE_URL is not set (the service then
 * uses its embedded store). */
export function createTriplestoreClient(
  settings: Settings['triplestore'],
  options: { timeoutMs?: number; queryTimeoutMs?: number } = {},
): TriplestoreClient | null {
  if (!settings.url) return null;
  const credentials = { user: settings.user, password: settings.password, timeoutMs: options.timeoutMs, queryTimeoutMs: options.queryTimeoutMs };
  if (settings.protocol === 'graphdb') {
    if (!settings.repository) throw new Error('TRIPLESTORE_REPOSITORY must name the repository when TRIPLESTORE_PROTOCOL is graphdb');
    return new GraphDbClient({ baseUrl: settings.url, repository: settings.repository, ...credentials });
  }
  return new GraphStoreClient({ graphStoreUrl: settings.url, queryUrl: settings.queryUrl, ...credentials });
}
