import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { parseNewAppKey } from '../parsers/app.parser';
import { renderAppKey, renderIssuedAppKey } from '../presenters/app-key.presenter';

/** `app-key create|list|deactivate`: the application API's organisation keys from the command line. */
export function registerAppKeyCommands(program: Command): void {
  const appKey = program.command('app-key').description('manage the application API keys (X-API-Key)');

  appKey
    .command('create')
    .description('issue a key for an organisation; the key is printed once and never stored')
    .requiredOption('--org <name>', 'organisation name')
    .requiredOption('--email <email>', 'contact email')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; email: string; json?: boolean }) => {
      const input = parseNewAppKey({ organization: opts.org, contactEmail: opts.email });
      const issued = await withServices((s) => s.app.keys.create(input));
      output(
        !!opts.json,
        { key: renderIssuedAppKey(issued) },
        `created key ${issued.key.id} for ${issued.key.organization}\n${issued.plaintext}\n(shown once: store it now)`,
      );
    });

  appKey
    .command('list')
    .description('list every key, newest first (prefix only)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const keys = await withServices((s) => s.app.keys.list());
      const lines = keys.map(
        (k) =>
          `${k.id}\t${k.prefix}…\t${k.organization}\t${k.contactEmail}\t${k.isActive ? 'active' : 'inactive'}\t${k.requestCount}\t${k.lastUsed ?? '-'}`,
      );
      output(!!opts.json, { keys: keys.map(renderAppKey) }, lines.join('\n') || 'no keys');
    });

  appKey
    .command('deactivate')
    .description('deactivate a key: it stops authenticating at once')
    .argument('<id>')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { json?: boolean }) => {
      const key = await withServices((s) => s.app.keys.deactivate(Number(id)));
      output(!!opts.json, { key: renderAppKey(key) }, `deactivated key ${key.id} (${key.organization})`);
    });
}
