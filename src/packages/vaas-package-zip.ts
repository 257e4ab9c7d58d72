import { createHash } from 'node:crypto';
import { zipFiles, type PackageFile } from './zip-files';

export interface VaasPackageFiles {
  dmCtId: string;
  title: string;
  files: PackageFile[];
}

/** A VaaS package's files: the (recovered or signed) instance, the model's XSD, the instance's JSON and N-Triples. */
export function vaasPackageFiles(pkg: { dmCtId: string; title: string; xml: string; xsd: string; json: string; ntriples: string }): VaasPackageFiles {
  const base = `dm-${pkg.dmCtId}`;
  return {
    dmCtId: pkg.dmCtId,
    title: pkg.title,
    files: [
      { name: `${base}.xml`, content: pkg.xml },
      { name: `${base}.xsd`, content: pkg.xsd },
      { name: `${base}-instance.json`, content: pkg.json },
      { name: `${base}-instance.nt`, content: pkg.ntriples },
    ],
  };
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
