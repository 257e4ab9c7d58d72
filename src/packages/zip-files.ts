import yazl from 'yazl';

/** A file of a package, as text or bytes. */
export interface PackageFile {
  name: string;
  content: string | Buffer;
}

/** Entries carry a fixed timestamp so the same files always make the same archive. */
const ENTRY_TIME = new Date(Date.UTC(2000, 0, 1));

/** The files in one ZIP (deflated); a small module of its own, so a thread that only zips loads no generator. */
export function zipFiles(files: PackageFile[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) {
    const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    zip.addBuffer(content, file.name, { mtime: ENTRY_TIME, mode: 0o100644 });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
