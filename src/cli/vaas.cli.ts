import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { output } from '../cli-support';
import { loadSettings } from '../config';
import { parseJwkSet } from '../parsers/signing.parser';
import { renderVerification, verificationLine } from '../presenters/signing.presenter';
import { decodeXmlBytes } from '../xml/instance';
import { verifyXml } from '../xml/signature';

/** A JWK set (or one JWK) from a URL or a file. */
async function readKeySet(source: string): Promise<unknown> {
  if (!/^https?:\/\//i.test(source)) return JSON.parse(await readFile(source, 'utf8'));
  const response = await fetch(source, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`cannot read the signing keys at ${source}: HTTP ${response.status}`);
  return response.json();
}

/** `vaas verify`: checks a signed instance offline, trusting only the published public keys. */
export function registerVaasCommands(program: Command): void {
  program
    .command('vaas')
    .description('validation as a service')
    .command('verify <file>')
    .description('verify a signed SDC4 instance against the published signing keys; exits 0 when valid, 1 otherwise')
    .option('--keys <url-or-file>', 'a JWK set or JWK, by URL or file (default: PUBLIC_BASE_URL/.well-known/sdcstudio-signing-keys.json)')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { keys?: string; json?: boolean }) => {
      const keys = parseJwkSet(await readKeySet(opts.keys ?? `${loadSettings().publicBaseUrl}/.well-known/sdcstudio-signing-keys.json`));
      const result = verifyXml(decodeXmlBytes(await readFile(file)), keys);
      output(!!opts.json, renderVerification(result), verificationLine(result));
      if (!result.valid) process.exitCode = 1;
    });
}
