import { anyJson, bool, dict, obj, str } from '../lib/json-schema';

/** parseAssemblyRequest's body (estimate and assemble): the root cluster in `data`, its items reused by `ct_id`
 * or minted from `label` + `data_type`. */
export const assemblyBodySchema = obj(
  { title: str(), description: str(), data: dict(anyJson), contextual: dict(anyJson), publish: bool, generate: bool, estimate_id: str() },
  ['description', 'contextual', 'publish', 'generate', 'estimate_id'],
);
