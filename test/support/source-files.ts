import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The service's own sources, read by the tests that check a rule over all of them. */
export const SRC = path.resolve(__dirname, '../../src');

/** Every `.ts` file below `dir`, recursively. */
export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}
