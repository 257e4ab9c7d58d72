import type { DataSource } from 'typeorm';
import type { Settings } from '../config';
import type { Logger } from '../lib/logger';
import type { Storage } from '../storage/storage';
import type { StorageEvents } from '../storage/storage-events';
import { ReferenceSchemaStore } from '../xml/reference-schemas';
import { SchemaSets } from './schema-sets';

/**
 * Validation's front door. Its parts: one schema-set cache on the event loop over one reference-schema store
 * (./schema-sets.ts), one thread module with one compile cache and one protocol for missing documents
 * (src/workers/validation.task.ts, the pool's `validation` task module), one instance-id rule
 * (src/xml/instance-id.ts), and one EV corrector (src/xml/ev.ts, `excusedByEv` its rule). Services and edges import validation from here, never from a
 * worker file; the doors (Interface B, VaaS, GraphQL) differ only by the policy they ask for.
 */
export type {
  TaskSchema,
  ValidateAnswer,
  ValidateResult,
  ValidateTask,
  VaasOnceAnswer,
  VaasOnceTask,
  VaasRenderTask,
  VaasSchemaSet,
  VaasValidateTask,
  VaasValidation,
} from '../workers/validation.task';
export type { VaasSignTask } from '../workers/sign.task';
export { instanceIdTaken } from '../xml/instance-id';
export { SchemaSets } from './schema-sets';
export { ThreadBatches } from './thread-batches';

/** Validation's one schema-set cache over its one reference-schema store (the allow-listed schemas, sdc4.xsd, kept
 * in Postgres), shared by every door. */
export function createSchemaSets(args: { settings: Settings; db: DataSource; logger: Logger; storage: Storage; events: StorageEvents }): SchemaSets {
  const { settings } = args;
  const references = new ReferenceSchemaStore(args.db, settings.referenceSchemas, args.logger);
  return new SchemaSets(args.storage, references, { catalogDir: settings.schemaCatalogDir, fetchAllowed: settings.schemaFetch }, args.events);
}
