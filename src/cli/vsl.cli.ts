import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { renderIssuerKey, verifyReceipt, type Check } from '../vsl';

const isUrl = (source: string) => /^https?:\/\//i.test(source);

async function readSource(source: string, what: string): Promise<string> {
  if (!isUrl(source)) return readFile(source, 'utf8');
  const response = await fetch(source);
  if (!response.ok) throw new Error(`cannot read ${what} at ${source}: HTTP ${response.status}`);
  return response.text();
}

const readJson = async (source: string, what: string) => JSON.parse(await readSource(source, what)) as unknown;
const collect = (value: string, previous: string[]) => [...previous, value];
const MARK: Record<Check['status'], string> = { pass: 'ok  ', fail: 'FAIL', unestablished: '??  ' };

/** `vsl verify` checks a settlement Receipt offline, as `sdcreceipt verify` does; `vsl keys` lists, rotates and
 * revokes the issuer's P-256 keys (every key stays published so old Receipts keep verifying). */
export function registerVslCommands(program: Command): void {
  const vsl = program.command('vsl').description('the Verifiable Settlement Layer');
  vsl
    .command('verify <receipt>')
    .description('verify a settlement Receipt offline; prints each check and exits 0 with VERIFIED only when all pass')
    .option('--keys <url-or-file>', 'a key document (the issuer’s, then each party’s); repeat', collect, [])
    .option('--payload <file>', 'the payload, to check payload_hash')
    .option('--governance <file>', 'the governance decision Receipt, to check the binding')
    .option('--schema <file>', 'another copy of the Receipt JSON Schema')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { keys: string[]; payload?: string; governance?: string; schema?: string; json?: boolean }) => {
      const receipt = await readJson(file, 'the Receipt');
      const body = receipt && typeof receipt === 'object' && 'receipt' in receipt && !('version' in receipt) ? receipt.receipt : receipt;
      const verdict = await verifyReceipt(body, {
        keys: await Promise.all(opts.keys.map((k) => readJson(k, 'a key document'))),
        payload: opts.payload ? await readFile(opts.payload) : undefined,
        governance: opts.governance ? ((await readJson(opts.governance, 'the governance Receipt')) as Record<string, unknown>) : undefined,
        schema: opts.schema ? ((await readJson(opts.schema, 'the schema')) as Record<string, unknown>) : undefined,
      });
      const lines = verdict.checks.map((c) => `${MARK[c.status]} ${c.name}: ${c.detail}`);
      output(
        !!opts.json,
        { verified: verdict.verified, checks: verdict.checks },
        [...lines, verdict.verified ? 'VERIFIED' : 'NOT VERIFIED'].join('\n'),
      );
      if (!verdict.verified) process.exitCode = 1;
    });

  const keys = vsl.command('keys').description("the issuer's P-256 Receipt signing keys");
  keys
    .command('list')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const all = await withServices((s) => s.vsl.issuerKeys());
      output(
        !!opts.json,
        { keys: all.map(renderIssuerKey) },
        all.map((k) => `${k.keyId} ${k.status} from ${k.notBefore.toISOString()}${k.notAfter ? ` to ${k.notAfter.toISOString()}` : ''}`).join('\n'),
      );
    });
  keys
    .command('rotate')
    .description('retire the active key (not_after now, still published) and make the next one active')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const { active, retired } = await withServices((s) => s.vsl.keys.rotate());
      output(
        !!opts.json,
        { active: renderIssuerKey(active), retired: retired ? renderIssuerKey(retired) : null },
        `active issuer key: ${active.keyId}${retired ? ` (retired ${retired.keyId}, still published for verification)` : ''}`,
      );
    });
  keys
    .command('revoke <key_id>')
    .description('revoke a key: every Receipt it signed then fails verification')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, opts: { json?: boolean }) => {
      const revoked = await withServices((s) => s.vsl.keys.revoke(keyId));
      output(!!opts.json, { key: renderIssuerKey(revoked) }, `revoked ${revoked.keyId}`);
    });
}
