import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { output } from '../cli-support';
import { loadSettings } from '../config';
import { Links } from '../lib/links';
import { parseJwkSet } from '../parsers/signing.parser';
import { renderVerification, verificationLine } from '../presenters/signing.presenter';
import { validateWithCorrection } from '../xml/ev';
import { decodeXmlBytes } from '../xml/instance';
import { catalogResolver, compileSchema } from '../xml/schema';
import { verifyXml } from '../xml/signature';
import { XmlParseError, XmlValidationError, type XmlError } from '../xml/xml-errors';

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** A text by URL or file. */
async function readSource(source: string, what: string): Promise<string> {
  if (!isUrl(source)) return readFile(source, 'utf8');
  const response = await fetch(source);
  if (!response.ok) throw new Error(`cannot read ${what} at ${source}: HTTP ${response.status}`);
  return response.text();
}

/** Errors of the signed content against the model's schema ([] when it validates; values tagged with an
 * ExceptionalValue may carry the errors SDC4 quarantines, as the studio's validation allows). */
async function schemaErrors(content: string, schemaCtId: string, source: string): Promise<XmlError[]> {
  const settings = loadSettings();
  const resolver = catalogResolver({ dmlib: async () => null, catalogDir: settings.schemaCatalogDir, fetchAllowed: true });
  const schema = await compileSchema({ name: `dm-${schemaCtId}.xsd`, content: await readSource(source, 'the schema') }, resolver);
  try {
    const outcome = validateWithCorrection(content, schema);
    return outcome.corrections.length === 0 ? [] : schema.validate(content);
  } catch (error) {
    if (error instanceof XmlValidationError) return error.errors;
    if (error instanceof XmlParseError) return [{ line: error.line ?? 0, message: error.message }];
    throw error;
  }
}

/** `vaas verify`: checks a signed instance offline, trusting only the published public keys, then checks the
 * signed content against its model's schema. */
export function registerVaasCommands(program: Command): void {
  program
    .command('vaas')
    .description('validation as a service')
    .command('verify <file>')
    .description('verify a signed SDC4 instance against the published signing keys and its schema; exits 0 when both hold, 1 otherwise')
    .option('--keys <url-or-file>', 'a JWK set or JWK, by URL or file (default: PUBLIC_BASE_URL/.well-known/sdcstudio-signing-keys.json)')
    .option('--schema <url-or-file>', "the model's XSD (default: the studio's /dmlib/dm-{schema_ct_id}.xsd, beside the keys URL)")
    .option('--no-schema-check', 'check the signature only')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { keys?: string; schema?: string; schemaCheck: boolean; json?: boolean }) => {
      const studio = new Links({ publicBaseUrl: opts.keys && isUrl(opts.keys) ? new URL(opts.keys).origin : loadSettings().publicBaseUrl });
      const keys = parseJwkSet(JSON.parse(await readSource(opts.keys ?? studio.signingKeys(), 'the signing keys')));
      const result = verifyXml(decodeXmlBytes(await readFile(file)), keys);
      if (!result.valid || !opts.schemaCheck) {
        output(!!opts.json, renderVerification(result), verificationLine(result));
        if (!result.valid) process.exitCode = 1;
        return;
      }
      const { schemaCtId } = result.properties;
      const errors = await schemaErrors(result.signedContent, schemaCtId, opts.schema ?? studio.dmlib(schemaCtId));
      const schema = { schema_ct_id: schemaCtId, valid: errors.length === 0, errors };
      const line =
        errors.length === 0
          ? verificationLine(result)
          : `invalid: the signed instance does not validate against dm-${schemaCtId}.xsd: ${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`;
      output(!!opts.json, { ...renderVerification(result), valid: errors.length === 0, schema }, line);
      if (errors.length > 0) process.exitCode = 1;
    });
}
