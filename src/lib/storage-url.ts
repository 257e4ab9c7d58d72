import path from 'node:path';

/** `postgres:` or `file:` / `file:<dir>` (a relative dir is taken from the working directory; none: STORAGE_DIR). */
export type StorageUrl = { kind: 'postgres' } | { kind: 'file'; dir: string | null };

export function parseStorageUrl(url: string): StorageUrl {
  if (/^postgres(ql)?:$/i.test(url)) return { kind: 'postgres' };
  const file = /^file:(.*)$/i.exec(url);
  if (file) return { kind: 'file', dir: file[1] ? path.resolve(file[1].replace(/^\/\/(?=\/)/, '')) : null };
  throw new Error(`STORAGE_URL must be postgres: or file:[<dir>], not ${JSON.stringify(url)}`);
}
