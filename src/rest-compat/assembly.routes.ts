import { presentModel } from '../presenters/catalog.presenter';
import { route } from './route-table';

export const assemblyRoutes = [
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/estimate/',
    requirement: 'build',
    handle: async ({ services, caller, body }) => ({ status: 200, body: await services.assembly.estimate(caller!, body) }),
  }),
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/',
    requirement: 'build',
    handle: async ({ services, caller, body }) => {
      const outcome = await services.pipeline.assemble(caller!, body);
      const headers = {
        'X-SDC-Estimated-Cost': String(outcome.estimatedCostCredits),
        'X-SDC-Balance-Remaining': String(outcome.balanceCredits),
      };
      if (outcome.mode === 'mixed') {
        return {
          status: 202,
          headers,
          body: {
            job_ct_id: outcome.job.ctId,
            job_url: services.links.job(outcome.job.ctId),
            task_id: outcome.job.taskId,
            data_source_ct_id: outcome.dataSourceCtId,
            mode: 'mixed',
            status: outcome.job.status,
            estimated_cost_credits: outcome.estimatedCostCredits,
          },
        };
      }
      const detail = await services.catalog.modelDetail(outcome.result.dm_ct_id, { userId: caller!.user.id });
      return {
        status: 200,
        headers,
        body: {
          ...presentModel(detail, services.settings.publicBaseUrl),
          published: outcome.result.published,
          generated: outcome.result.generated,
          model_url: outcome.result.model_url,
          package_url: outcome.result.package_url,
          ...(outcome.result.finalize_error ? { finalize_error: outcome.result.finalize_error } : {}),
        },
      };
    },
  }),
];
