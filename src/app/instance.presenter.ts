import type { AppInstance } from '../entities/app-instance.entity';

/** A stored instance as GET instances/<id>/ shows it: the validation result plus what was stored with it. */
export function presentInstance(instance: AppInstance) {
  return {
    instance_id: instance.instanceId,
    dm_ct_id: instance.dmCtId,
    dm_label: instance.dmLabel,
    validation_status: instance.validationStatus,
    storage_type: instance.storageType,
    auto_corrected_fields: instance.autoCorrectedFields,
    validation_errors: instance.validationErrors,
    rdf_sync_status: instance.rdfSyncStatus,
    rdf_sync_attempts: instance.rdfSyncAttempts,
    rdf_sync_error: instance.rdfSyncError,
    rdf_synced_at: instance.rdfSyncedAt ? instance.rdfSyncedAt.toISOString() : null,
    graph_uri: instance.graphUri,
    corrections: instance.corrections,
    json: instance.jsonRendering,
    original_xml: instance.originalXml,
    corrected_xml: instance.correctedXml,
    created: instance.createdAt.toISOString(),
  };
}
