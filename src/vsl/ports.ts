import type { DataSource, EntityManager } from 'typeorm';
import type { Settings } from '../config';
import { asStudioError } from '../lib/cpu-errors';
import { DomainError } from '../lib/errors';
import type { Links } from '../lib/links';
import type { Logger } from '../lib/logger';
import type { Caller } from '../services/auth.service';
import { recordOutcome, type LedgerService } from '../money';
import type { PackageService } from '../services/package.service';
import type { SchemaHostingService } from '../services/schema-hosting.service';
import { VaasSchemas } from '../services/vaas-schemas';
import type { SchemaSets, VaasValidateTask, VaasValidation } from '../validation';
import type { CpuPool } from '../workers/pool';
import { sha256Hex } from './jcs';

/**
 * The two things settlement needs from the rest of the service, behind one door so they can be rewired to the new
 * validation and money modules: validate a payload against its model (strictly, in the worker pool, uncharged:
 * the Receipt is the charge), and charge a Receipt in the transaction that stores it.
 */

export interface PayloadValidation {
  dmCtId: string;
  /** The model's XSD as the studio serves it at `schemaUrl`, and its SHA-256. */
  xsd: string;
  schemaUrl: string;
  schemaSha256: string;
  valid: boolean;
  structuralErrors: number;
  semanticErrors: number;
  errors: Array<{ line: number; message: string }>;
}

interface ReceiptCharge {
  ledgerEntryId: number | null;
  balanceCredits: number;
}

export interface VslPorts {
  /** 400/404/413/422 domain errors when the payload cannot be read or names no model the caller may use. */
  validate(caller: Caller, xml: string): Promise<PayloadValidation>;
  /** Charges in `tx`, lets `answer(charge)` write the Receipt and build the answer in `tx`, and records that answer
   * as the request's Idempotency-Key outcome in the same transaction (a retry after a crash replays it); 402
   * (insufficient funds) or 403 (key limit) when it cannot be paid, and `tx` rolls back. */
  charge<T>(
    tx: EntityManager,
    caller: Caller,
    credits: number,
    reason: string,
    receiptId: string,
    answer: (charge: ReceiptCharge) => Promise<T>,
  ): Promise<T>;
}

export function createVslPorts(args: {
  settings: Settings;
  db: DataSource;
  logger: Logger;
  links: Links;
  cpu: CpuPool;
  hosting: SchemaHostingService;
  packages: PackageService;
  ledger: LedgerService;
  schemaSets: SchemaSets;
}): VslPorts {
  const { db, cpu, ledger, links } = args;
  const schemas = new VaasSchemas(db, args.hosting, args.packages, args.schemaSets);
  const run = async <I, O>(name: string, input: I): Promise<O> => {
    try {
      return await cpu.run<I, O>('validation', name, input);
    } catch (error) {
      throw asStudioError(error);
    }
  };
  return {
    async validate(caller, xml) {
      const { dmCtId } = await run<string, { dmCtId: string; xml: string }>('vaasRoot', xml);
      const model = await schemas.schemaOf(await schemas.model(dmCtId, caller.user.id));
      const task: VaasValidateTask = { xml, schema: { key: model.schema.key }, recover: false, countEvs: false };
      let result: VaasValidation;
      try {
        result = await run<VaasValidateTask, VaasValidation>('vaasValidate', task);
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'schema_not_loaded')) throw error;
        result = await run<VaasValidateTask, VaasValidation>('vaasValidate', { ...task, schema: model.schema });
      }
      return {
        dmCtId,
        xsd: model.xsd,
        schemaUrl: links.dmlib(dmCtId),
        schemaSha256: sha256Hex(model.xsd),
        valid: result.valid,
        structuralErrors: result.structuralErrors,
        semanticErrors: result.semanticErrors,
        errors: result.errors,
      };
    },
    async charge(tx, caller, credits, reason, receiptId, answer) {
      const paid = await ledger.charge({ userId: caller.user.id, amount: credits, reason, apiKeyId: caller.key?.id ?? null }, tx);
      const result = await answer({ ledgerEntryId: paid.ledgerEntryId, balanceCredits: paid.balanceCredits });
      await recordOutcome(tx, { charged: credits, ledgerEntryId: paid.ledgerEntryId, resource: { type: 'receipt', id: receiptId }, result });
      return result;
    },
  };
}
