import type { AppInstance, RdfSyncStatus, ValidationStatus } from '../entities/app-instance.entity';

/** A stored instance as GET instances/<id>/ shows it: the validation result plus what was stored with it. */
export interface InstanceView {
  instanceId: string;
  dmCtId: string;
  dmLabel: string;
  validationStatus: ValidationStatus;
  storageType: string;
  autoCorrectedFields: string[];
  validationErrors: Record<string, string> | null;
  rdfSyncStatus: RdfSyncStatus;
  rdfSyncAttempts: number;
  rdfSyncError: string | null;
  rdfSyncedAt: string | null;
  graphUri: string;
  corrections: Array<Record<string, unknown>>;
  json: unknown;
  originalXml: string;
  correctedXml: string;
  createdAt: string;
}

export function presentInstance(instance: AppInstance): InstanceView {
  return {
    instanceId: instance.instanceId,
    dmCtId: instance.dmCtId,
    dmLabel: instance.dmLabel,
    validationStatus: instance.validationStatus,
    storageType: instance.storageType,
    autoCorrectedFields: instance.autoCorrectedFields,
    validationErrors: instance.validationErrors,
    rdfSyncStatus: instance.rdfSyncStatus,
    rdfSyncAttempts: instance.rdfSyncAttempts,
    rdfSyncError: instance.rdfSyncError,
    rdfSyncedAt: instance.rdfSyncedAt ? instance.rdfSyncedAt.toISOString() : null,
    graphUri: instance.graphUri,
    corrections: instance.corrections,
    json: instance.jsonRendering,
    originalXml: instance.originalXml,
    correctedXml: instance.correctedXml,
    createdAt: instance.createdAt.toISOString(),
  };
}

export function renderInstance(view: InstanceView) {
  return {
    instance_id: view.instanceId,
    dm_ct_id: view.dmCtId,
    dm_label: view.dmLabel,
    validation_status: view.validationStatus,
    storage_type: view.storageType,
    auto_corrected_fields: view.autoCorrectedFields,
    validation_errors: view.validationErrors,
    rdf_sync_status: view.rdfSyncStatus,
    rdf_sync_attempts: view.rdfSyncAttempts,
    rdf_sync_error: view.rdfSyncError,
    rdf_synced_at: view.rdfSyncedAt,
    graph_uri: view.graphUri,
    corrections: view.corrections,
    json: view.json,
    original_xml: view.originalXml,
    corrected_xml: view.correctedXml,
    created: view.createdAt,
  };
}
