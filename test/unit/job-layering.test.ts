import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders depend one way: jobs -> services -> db (and jobs -> db). A folder lower down never imports a higher one. */
const SRC = path.resolve(__dirname, '../../src');

function importsOf(folder: string): Array<{ file: string; target: string }> {
  return readdirSync(path.join(SRC, folder))
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) =>
      [...readFileSync(path.join(SRC, folder, name), 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((m) => ({
        file: `${folder}/${name}`,
        target: m[1],
      })),
    );
}

describe('folder layering of jobs, services and db', () => {
  it.each([
    ['services', ['../jobs/']],
    ['db', ['../jobs/', '../services/']],
  ])('%s imports nothing from %p', (folder, forbidden) => {
    expect(importsOf(folder).filter(({ target }) => forbidden.some((prefix) => target.startsWith(prefix)))).toEqual([]);
  });
});
