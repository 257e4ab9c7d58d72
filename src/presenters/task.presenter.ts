import type { JobStatus } from '../entities/job.entity';
import type { ArtifactKey } from './catalog.presenter';
import { renderJob, renderJobResult, type JobView } from './job.presenter';
import type { Static } from '../lib/json-schema';
import type { taskSchema } from './task.schema';

/** A job as the small-business agent polls it (`GET /dmgen/tasks/{task_id}/`): the job, the model's title and,
 * once completed, its artefact links. */
export interface TaskView {
  job: JobView;
  title: string | null;
  artifacts: Record<ArtifactKey, string> | null;
}

/** The polling vocabulary of the clients: `completed` and `failed` end the poll; anything else keeps it going. */
const TASK_STATUS: Record<JobStatus, string> = { queued: 'queued', running: 'processing', completed: 'completed', failed: 'failed' };

/** The fields the clients read (status, dm_ct_id or ct_id, title, artifacts; error or message), and the job. */
export function renderTask(view: TaskView): Static<typeof taskSchema> {
  const { job } = view;
  const done = job.status === 'completed';
  return {
    task_id: job.taskId,
    status: TASK_STATUS[job.status],
    step: job.step,
    job_ct_id: job.ctId,
    job_url: job.url,
    dm_ct_id: job.dmCtId,
    ct_id: job.dmCtId,
    title: view.title,
    ...(done ? { artifacts: view.artifacts, result: renderJobResult(job) } : {}),
    ...(job.status === 'failed' ? { error: job.error, message: job.error, result: renderJobResult(job) } : {}),
    job: renderJob(job),
  };
}
