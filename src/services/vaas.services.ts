import type { DataSource } from 'typeorm';
import type { Settings } from '../config';
import type { Links } from '../lib/links';
import type { Logger } from '../lib/logger';
import type { CpuPool } from '../workers/pool';
import type { SchemaSets } from '../validation';
import type { Clock } from './clock';
import type { LedgerService } from '../money';
import type { PackageService } from './package.service';
import type { SchemaHostingService } from './schema-hosting.service';
import type { Storage } from '../storage/storage';
import type { SigningService } from './signing.service';
import { VaasPackages } from './vaas-packages';
import { VaasSchemas } from './vaas-schemas';
import { VaasService } from './vaas.service';

/** Validation as a service, wired from the studio's services. Model schemas are gathered in validation's one
 * schema-set cache, as Interface B's are (sdc4.xsd from SCHEMA_CATALOG_DIR, then the stored reference schemas, the
 * network only with SCHEMA_FETCH). */
export function createVaasService(args: {
  settings: Settings;
  db: DataSource;
  clock: Clock;
  links: Links;
  logger: Logger;
  cpu: CpuPool;
  hosting: SchemaHostingService;
  packages: PackageService;
  ledger: LedgerService;
  signing: SigningService;
  storage: Storage;
  /** Validation's one schema-set cache (Interface B's too). */
  schemaSets: SchemaSets;
}): VaasService {
  const { settings, db } = args;
  const schemas = new VaasSchemas(db, args.hosting, args.packages, args.schemaSets);
  const packages = new VaasPackages(db, args.clock, args.links, args.storage, settings.vaas.packageTtlSeconds, settings.vaas.packageQuotaBytes);
  return new VaasService(args.cpu, schemas, args.ledger, args.signing, packages, args.links, args.clock, {
    validationCredits: settings.vaas.validationCredits,
    signatureCredits: settings.vaas.signatureCredits,
    maxXmlBytes: settings.cpu.thread.xml.maxBytes,
  });
}
