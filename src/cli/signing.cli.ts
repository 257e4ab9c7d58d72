import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { renderJwk } from '../presenters/signing.presenter';

/** `signing rotate`: a new current key; the retired one stays published so what it signed still verifies. */
export function registerSigningCommands(program: Command): void {
  program
    .command('signing')
    .description('the studio signing keys')
    .command('rotate')
    .description('retire the current signing key (kept for verification) and make a new one current')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const { current, retired } = await withServices((s) => s.signing.rotate());
      output(
        !!opts.json,
        { current: renderJwk(current), retired: retired ? renderJwk(retired) : null },
        `current signing key: ${current.kid}${retired ? ` (retired ${retired.kid}, still published for verification)` : ''}`,
      );
    });
}
