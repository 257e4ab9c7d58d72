import { anyJson, arr, dict, int, nullable, obj, str } from '../lib/json-schema';
import { validationSchemaProperties } from './validation.schema';

/** renderInstance's body. */
export const instanceSchema = obj({
  ...validationSchemaProperties,
  rdf_sync_attempts: int(),
  rdf_sync_error: nullable(str()),
  rdf_synced_at: nullable(str()),
  graph_uri: str(),
  corrections: arr(dict(anyJson)),
  json: anyJson,
  original_xml: str(),
  corrected_xml: str(),
  created: str(),
});
