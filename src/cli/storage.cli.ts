import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { copyStorage } from '../storage/copy-storage';
import { createStorage } from '../storage/create-storage';
import { STORAGE_AREAS, type StorageArea } from '../storage/storage';
import { StorageEvents } from '../storage/storage-events';

/** `storage migrate|list|gc`: moving a `file:` store into `postgres:` (or back), what an area holds, and collecting
 * unreferenced blobs now. */
export function registerStorageCommands(program: Command): void {
  const storage = program.command('storage').description('manage the stored files (STORAGE_URL)');

  storage
    .command('migrate')
    .description('copy every stored file from one storage to another (idempotent: unchanged files are skipped)')
    .requiredOption('--from <url>', 'file:<dir> or postgres:')
    .requiredOption('--to <url>', 'postgres: or file:<dir>')
    .option('--json', 'print one JSON object')
    .action(async (opts: { from: string; to: string; json?: boolean }) => {
      const report = await withServices((s) => {
        const open = (url: string) =>
          createStorage({
            url,
            storageDir: s.settings.storageDir,
            db: s.db,
            events: new StorageEvents(s.logger),
            logger: s.logger,
            dbShares: s.app.dbShares,
          });
        return copyStorage(open(opts.from), open(opts.to));
      });
      output(!!opts.json, { migrated: report }, `copied ${report.copied} files (${report.bytes} bytes), ${report.unchanged} already there`);
    });

  storage
    .command('list')
    .description('the files of one area')
    .argument('<area>', STORAGE_AREAS.join(', '))
    .option('--json', 'print one JSON object')
    .action(async (area: string, opts: { json?: boolean }) => {
      if (!(STORAGE_AREAS as readonly string[]).includes(area)) throw new Error(`area must be one of ${STORAGE_AREAS.join(', ')}`);
      const files = await withServices((s) => s.app.storage.list(area as StorageArea));
      output(!!opts.json, { files }, files.map((f) => `${f.name}\t${f.size}`).join('\n') || '(none)');
    });

  storage
    .command('gc')
    .description('remove stored blobs nothing references (postgres:)')
    .option('--grace-seconds <seconds>', 'only blobs untouched this long', '3600')
    .option('--json', 'print one JSON object')
    .action(async (opts: { graceSeconds: string; json?: boolean }) => {
      const removed = await withServices((s) => s.app.storage.gc(Number(opts.graceSeconds) * 1000));
      output(!!opts.json, { removed }, `removed ${removed} blobs`);
    });
}
