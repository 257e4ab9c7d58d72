import type { RdfSyncStatus, ValidationStatus } from '../entities/app-instance.entity';
import type { Static } from '../lib/json-schema';
import type { validationSchema } from './validation.schema';

/** The contract's validation result (validate/xml), as REST and GraphQL both answer it: validationSchema's body in
 * camelCase, with the statuses typed. */
export interface ValidationView {
  instanceId: string;
  dmCtId: string;
  dmLabel: string;
  validationStatus: ValidationStatus;
  storageType: string;
  autoCorrectedFields: string[];
  validationErrors: Record<string, string> | null;
  rdfSyncStatus: RdfSyncStatus;
}

export function renderValidation(view: ValidationView): Static<typeof validationSchema> {
  return {
    instance_id: view.instanceId,
    dm_ct_id: view.dmCtId,
    dm_label: view.dmLabel,
    validation_status: view.validationStatus,
    storage_type: view.storageType,
    auto_corrected_fields: view.autoCorrectedFields,
    validation_errors: view.validationErrors,
    rdf_sync_status: view.rdfSyncStatus,
  };
}
