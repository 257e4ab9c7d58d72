import { presentJob } from '../presenters/job.presenter';
import { route } from './route-table';

export const jobsRoutes = [
  route({
    method: 'get',
    path: '/api/v1/jobs/',
    requirement: 'read',
    handle: async ({ services, caller, query }) => {
      const jobs = await services.jobs.listFor(caller!, { kind: query.kind, dataSource: query.data_source });
      const costs = await services.ledger.jobCosts(jobs.map((j) => j.id));
      return { status: 200, body: jobs.map((j) => presentJob(j, costs.get(j.id) ?? 0, services.settings.publicBaseUrl)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/jobs/:ctId/',
    requirement: 'read',
    handle: async ({ services, caller, params }) => {
      const job = await services.jobs.getFor(caller!, params.ctId!);
      return { status: 200, body: presentJob(job, await services.ledger.jobCost(job.id), services.settings.publicBaseUrl) };
    },
  }),
];
