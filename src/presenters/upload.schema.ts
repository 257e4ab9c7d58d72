import { arr, int, obj, str } from '../lib/json-schema';

const storedFileProperties = { filename: str(), path: str(), size: int() };

/** renderStoredFile's body. */
export const storedFileSchema = obj(storedFileProperties);
/** renderSchemaUpload's body. */
export const schemaUploadSchema = obj({ stored_files: arr(storedFileSchema), errors: arr(obj({ filename: str(), error: str() })) });
/** renderRdfUpload's body. */
export const rdfUploadSchema = obj({ ...storedFileProperties, graph_uri: str(), triplestore_status: str() });
