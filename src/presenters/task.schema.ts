import { anyJson, dict, nullable, obj, str } from '../lib/json-schema';
import { jobSchema } from './job.schema';

/** renderTask's body (`GET /dmgen/tasks/{task_id}/`, merged from clients17): artefacts and result once completed,
 * error and message once failed. */
export const taskSchema = obj(
  {
    task_id: nullable(str()),
    status: str(),
    step: nullable(str()),
    job_ct_id: str(),
    job_url: str(),
    dm_ct_id: nullable(str()),
    ct_id: nullable(str()),
    title: nullable(str()),
    artifacts: nullable(dict(str())),
    result: anyJson,
    error: nullable(str()),
    message: nullable(str()),
    job: jobSchema,
  },
  ['artifacts', 'result', 'error', 'message'],
);
