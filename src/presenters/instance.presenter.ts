import type { AppInstance } from '../entities/app-instance.entity';
import { renderValidation, type ValidationView } from './validation.presenter';
import type { Static } from '../lib/json-schema';
import type { instanceSchema } from './instance.schema';

/** A stored instance as GET instances/<id>/ shows it: the validation result plus what was stored with it
 * (instanceSchema's body in camelCase). */
export interface InstanceView extends ValidationView {
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
    correctedXml: instance.correctedXml ?? instance.originalXml,
    createdAt: instance.createdAt.toISOString(),
  };
}

export function renderInstance(view: InstanceView): Static<typeof instanceSchema> {
  return {
    ...renderValidation(view),
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
