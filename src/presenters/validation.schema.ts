import { arr, dict, nullable, obj, str } from '../lib/json-schema';

const validationProperties = {
  instance_id: str(),
  dm_ct_id: str(),
  dm_label: str(),
  validation_status: str(),
  storage_type: str(),
  auto_corrected_fields: arr(str()),
  validation_errors: nullable(dict(str())),
  rdf_sync_status: str(),
};

/** renderValidation's body. */
export const validationSchema = obj(validationProperties);
/** renderValidation's fields, for bodies that extend them (an instance). */
export const validationSchemaProperties = validationProperties;
