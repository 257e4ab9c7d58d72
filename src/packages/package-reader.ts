import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import type { PackageFile } from './zip-files';

/** Reads every file of a package given as a ZIP archive or a directory (names relative to its root). Text
 * formats come back as strings, anything else as bytes. The archive's total size is capped (no zip bombs). */

const MAX_PACKAGE_BYTES = 200 * 1024 * 1024;

const TEXT = /\.(xsd|xml|html?|ttl|rdf|owl|jsonld|json|md|txt|csv|ya?ml)$/i;

/** `raw`: every file as its bytes (an imported package is kept and served byte for byte). */
function asFile(name: string, bytes: Buffer, raw: boolean): PackageFile {
  return { name, content: !raw && TEXT.test(name) ? bytes.toString('utf8') : bytes };
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, strictFileNames: true }, (err, zip) => (err ? reject(err) : resolve(zip))),
  );
}

async function readZip(file: string, raw: boolean): Promise<PackageFile[]> {
  const zip = await openZip(file);
  const files: PackageFile[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      zip.close();
      reject(err);
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(files));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      total += entry.uncompressedSize;
      if (total > MAX_PACKAGE_BYTES) return fail(new Error(`${file} unpacks to more than ${MAX_PACKAGE_BYTES} bytes`));
      zip.openReadStream(entry, (err, stream) => {
        if (err) return fail(err);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', fail);
        stream.on('end', () => {
          files.push(asFile(entry.fileName, Buffer.concat(chunks), raw));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

async function readDirectory(root: string, raw: boolean, relative = ''): Promise<PackageFile[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const files: PackageFile[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await readDirectory(root, raw, name)));
    else if (entry.isFile()) files.push(asFile(name, await readFile(path.join(root, name)), raw));
  }
  return files;
}

export async function readPackageFiles(pathToZipOrDir: string, raw = false): Promise<PackageFile[]> {
  const info = await stat(pathToZipOrDir);
  return info.isDirectory() ? readDirectory(pathToZipOrDir, raw) : readZip(pathToZipOrDir, raw);
}
