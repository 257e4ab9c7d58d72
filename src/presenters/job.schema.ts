import { anyJson, dateTime, dict, int, nullable, obj, str } from '../lib/json-schema';

/** renderJob's body. */
export const jobSchema = obj({
  ct_id: str(),
  url: str(),
  kind: str(),
  status: str(),
  step: nullable(str()),
  cost_credits: int(),
  result: nullable(dict(anyJson)),
  error: nullable(str()),
  data_source_ct_id: nullable(str()),
  dm_ct_id: nullable(str()),
  task_id: nullable(str()),
  created: dateTime,
  updated: dateTime,
});
