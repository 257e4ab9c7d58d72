import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Periodic work has one list (src/jobs/maintenance.ts); the only other timers that repeat are per connection or
 * per cache. */
const SRC = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('repeating timers in src', () => {
  it('are only the maintenance list, the GraphQL socket pings and the key-use flush', () => {
    const withInterval = sourceFiles(SRC)
      .filter((file) => readFileSync(file, 'utf8').includes('setInterval('))
      .map((file) => path.relative(SRC, file))
      .sort();
    expect(withInterval).toEqual(['http/graphql-socket.ts', 'jobs/maintenance.ts', 'services/key-cache.ts']);
  });
});
