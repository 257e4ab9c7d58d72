import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SRC, sourceFiles } from '../support/source-files';

/** Periodic work has one list (src/jobs/maintenance.ts); the only other timers that repeat are per connection or
 * per cache. */
describe('repeating timers in src', () => {
  it('are only the maintenance list, the GraphQL socket pings and the key-use flush, one each', () => {
    const withInterval = sourceFiles(SRC)
      .map((file) => [path.relative(SRC, file), readFileSync(file, 'utf8').split('setInterval(').length - 1] as const)
      .filter(([, count]) => count > 0)
      .map(([file, count]) => `${file} ×${count}`)
      .sort();
    expect(withInterval).toEqual(['http/graphql-socket.ts ×1', 'jobs/maintenance.ts ×1', 'services/key-cache.ts ×1']);
  });
});
