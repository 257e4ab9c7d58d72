/** The Verifiable Settlement Layer (vsl.md): governance, signed Receipts, party triggers and the offline verifier.
 * The only door into src/vsl. */
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import type { Settings } from '../config';
import type { Links } from '../lib/links';
import type { Logger } from '../lib/logger';
import type { Clock } from '../services/clock';
import type { LedgerService } from '../money';
import type { PackageService } from '../services/package.service';
import type { SchemaHostingService } from '../services/schema-hosting.service';
import type { CpuPool } from '../workers/pool';
import { IssuerKeys } from './issuer-keys';
import { createVslPorts } from './ports';
import type { SchemaSets } from '../validation';
import { VslService } from './service';

export { canonicalJson } from './jcs';
export { fetchKeyDocument, isPrivateAddress, keyDocumentUrl, PartyKeyError } from './party-keys';
export { verifyReceipt, type Check, type Verdict } from './verify';
export { decide as decideGovernance, instanceGovernance, modelWorkflow } from './governance';
export { parseReceiptId, parseSettleBody, parseTriggerBody } from './parse';
export { renderIssuerKey, renderKeyDocument, renderReceiptStatus, renderSettle, renderTrigger, settleHeaders } from './present';
export { keyDocumentSchema, receiptStatusSchema, settleSchema, triggerSchema } from './wire.schema';
export type { ReceiptStatusView } from './service';
export { VslService };

export function createVslService(args: {
  settings: Settings;
  db: DataSource;
  clock: Clock;
  links: Links;
  logger: Logger;
  cpu: CpuPool;
  hosting: SchemaHostingService;
  packages: PackageService;
  ledger: LedgerService;
  schemaSets: SchemaSets;
}): VslService {
  const { settings } = args;
  const ports = createVslPorts(args);
  const keys = new IssuerKeys(args.db, args.clock);
  const partyKeys = {
    allow: settings.vsl.partyKeyAllow,
    ca: settings.vsl.partyKeyCaFile ? readFileSync(settings.vsl.partyKeyCaFile, 'utf8') : null,
    timeoutMs: settings.vsl.partyKeyTimeoutMs,
    maxBytes: settings.vsl.partyKeyMaxBytes,
  };
  return new VslService(args.db, args.clock, args.links, ports, keys, partyKeys, settings.vsl.receiptCredits);
}
