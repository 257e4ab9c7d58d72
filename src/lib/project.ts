import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root: the nearest ancestor of this module holding package.json (works from src/ and dist/). */
export function projectRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/** The service's version, from its package.json. */
export function projectVersion(): string {
  const file = path.join(projectRoot(), 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : '0.0.0';
}

/** A directory of an installed package (e.g. `swagger-ui-dist`, or `react` + `umd`), for pages that serve their
 * assets from node_modules: no CDN, these machines have no internet. */
export const installedPackageDir = (pkg: string, sub = '.') => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), sub);
