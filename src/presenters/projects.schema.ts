import { bool, nullable, obj, str } from '../lib/json-schema';

/** renderProject's body. */
export const projectSchema = obj({ ct_id: str(), name: str(), owner_email: nullable(str()), is_public: bool, is_default_library: bool });
/** renderModeler's body. */
export const modelerSchema = obj({ name: str(), email: str(), project_ct_id: str(), project_name: str(), project_is_public: bool });
