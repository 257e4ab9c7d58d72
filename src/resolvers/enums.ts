import { registerEnumType } from 'type-graphql';
import { KEY_STATUSES, SCOPES } from '../entities/api-key.entity';
import { RDF_SYNC_STATUSES, VALIDATION_STATUSES } from '../entities/app-instance.entity';
import { CATALOG_STATUSES } from '../entities/catalog-entry';
import { JOB_KINDS, JOB_STATUSES } from '../entities/job.entity';
import { APP_PROFILES } from '../packages/app-compose';
import { CONTEXTUAL_SLOTS } from '../packages/contextual-library';
import { ASSEMBLY_MODES } from '../presenters/assembly.presenter';
import { TRIPLESTORE_STATUSES } from '../presenters/upload.presenter';

/** A GraphQL enum from the TypeScript constant that defines the vocabulary (the only list of its values). Each
 * value's GraphQL name is the value itself, as REST spells it (`generate_package`, `valid_with_ev`), so both
 * transports share one vocabulary and a variable carries the same string in either. */
function enumOf<const V extends string>(values: readonly V[], name: string, description: string): { [K in V]: K } {
  const members = Object.fromEntries(values.map((value) => [value, value])) as { [K in V]: K };
  registerEnumType(members, { name, description });
  return members;
}

export const JobKindEnum = enumOf(JOB_KINDS, 'JobKind', 'What a job does.');
export const JobStatusEnum = enumOf(JOB_STATUSES, 'JobStatus', 'Where a job is: queued, running, then completed or failed.');
export const ScopeEnum = enumOf(SCOPES, 'Scope', 'What an API key may do: read, build (free work), spend (charged work).');
export const KeyStatusEnum = enumOf(KEY_STATUSES, 'KeyStatus', 'Whether an API key still works.');
export const CatalogStatusEnum = enumOf(CATALOG_STATUSES, 'CatalogStatus', 'A catalog entry: draft, published or retired.');
export const AssemblyModeEnum = enumOf(ASSEMBLY_MODES, 'AssemblyMode', 'reuse: built inside the request; mixed: built by a job.');
export const ValidationStatusEnum = enumOf(VALIDATION_STATUSES, 'ValidationStatus', 'valid, or valid once its EVs were corrected.');
export const RdfSyncStatusEnum = enumOf(RDF_SYNC_STATUSES, 'RdfSyncStatus', "An instance's triples in the triplestore.");
export const TriplestoreStatusEnum = enumOf(
  TRIPLESTORE_STATUSES,
  'TriplestoreStatus',
  'An uploaded RDF file in the triplestore: synced, disabled (none configured) or failed (the file is kept).',
);
export const AppProfileEnum = enumOf(APP_PROFILES, 'AppProfile', 'A generated application: os (Oxigraph) or enterprise (GraphDB).');
export const ContextualSlotEnum = enumOf(CONTEXTUAL_SLOTS, 'ContextualSlot', 'The contextual slot of a data model a component fills.');
