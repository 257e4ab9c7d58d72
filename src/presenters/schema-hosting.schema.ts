import { arr, bool, int, nullable, obj, str } from '../lib/json-schema';

/** renderSchemaVersions's body. */
export const schemaVersionsSchema = obj({
  dm_ct_id: str(),
  current_sha256: str(),
  schema_url: str(),
  versions: arr(obj({ sha256: str(), size: int(), archived_at: nullable(str()), current: bool, url: str() })),
});
