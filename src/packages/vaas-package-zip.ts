import { createHash } from 'node:crypto';
import { zipFiles, type PackageFile } from './model-package';

export interface VaasPackageFiles {
  dmCtId: string;
  title: string;
  files: PackageFile[];
}

const sha256 = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');
const bytes = (file: PackageFile) => (typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content);

/** A ZIP of the instance's files and `manifest.json` (ct_id, title, each file's name, size and sha256). Hashing
 * and deflating megabytes: run in the worker pool (package.task.ts `vaasPackageZip`), never on the event loop. */
export async function packageZip(pkg: VaasPackageFiles): Promise<Buffer> {
  const manifest = {
    ct_id: pkg.dmCtId,
    title: pkg.title,
    files: pkg.files.map((f) => ({ name: f.name, size: bytes(f).length, sha256: sha256(bytes(f)) })),
  };
  return zipFiles([...pkg.files, { name: 'manifest.json', content: `${JSON.stringify(manifest, null, 2)}\n` }]);
}
