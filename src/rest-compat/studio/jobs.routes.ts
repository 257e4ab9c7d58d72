import { parseJobFilters } from '../../parsers/jobs.parser';
import { renderJob } from '../../presenters/job.presenter';
import { renderTask } from '../../presenters/task.presenter';
import { route } from '../route-table';
import { jobSchema } from '../../presenters/job.schema';
import { taskSchema } from '../../presenters/task.schema';
import { arr, str } from '../../lib/json-schema';

export const jobsRoutes = [
  route({
    method: 'get',
    path: '/api/v1/jobs/',
    requirement: 'read',
    doc: {
      summary: 'List your jobs',
      tag: 'Jobs',
      query: { kind: str(), data_source: str() },
      responses: { 200: { description: 'Your jobs, newest first.', schema: arr(jobSchema) } },
    },
    handle: async ({ services, caller, query }) => {
      const jobs = await services.jobs.listFor(caller, parseJobFilters(query));
      return { status: 200, body: (await services.jobs.views(jobs)).map(renderJob) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/jobs/:ctId/',
    requirement: 'read',
    doc: { summary: 'One job', tag: 'Jobs', responses: { 200: { description: 'The job.', schema: jobSchema } } },
    handle: async ({ services, caller, params }) => {
      const job = await services.jobs.getFor(caller, params.ctId);
      return { status: 200, body: renderJob(await services.jobs.view(job)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/dmgen/tasks/:taskId/',
    requirement: 'read',
    doc: {
      summary: "An assembly's task by its task_id (the agent toolkit polls it)",
      tag: 'Jobs',
      responses: { 200: { description: 'The task and its job.', schema: taskSchema } },
    },
    handle: async ({ services, caller, params }) => ({ status: 200, body: renderTask(await services.jobs.taskFor(caller, params.taskId)) }),
  }),
];
