import type { StoredFile } from '../storage/file-store';
import type { Static } from '../lib/json-schema';
import type { rdfUploadSchema, schemaUploadSchema, storedFileSchema } from './upload.schema';

export const TRIPLESTORE_STATUSES = ['synced', 'disabled', 'failed'] as const;
export type TriplestoreStatus = (typeof TRIPLESTORE_STATUSES)[number];

/** upload/schema: what was stored, and why each other file was not. */
export interface SchemaUploadView {
  storedFiles: StoredFile[];
  errors: Array<{ filename: string; error: string }>;
}

/** upload/rdf: the stored file, the model's schema graph and whether the triplestore took it. */
export interface RdfUploadView extends StoredFile {
  graphUri: string;
  triplestoreStatus: TriplestoreStatus;
}

export function renderStoredFile(view: StoredFile): Static<typeof storedFileSchema> {
  return { filename: view.filename, path: view.path, size: view.size };
}

export function renderSchemaUpload(view: SchemaUploadView): Static<typeof schemaUploadSchema> {
  return { stored_files: view.storedFiles.map(renderStoredFile), errors: view.errors };
}

export function renderRdfUpload(view: RdfUploadView): Static<typeof rdfUploadSchema> {
  return { ...renderStoredFile(view), graph_uri: view.graphUri, triplestore_status: view.triplestoreStatus };
}
