import { parseAssemblyRequest } from '../../parsers/assembly.parser';
import { assembleHeaders, estimateHeaders, renderAssemblyJob, renderBuiltModel, renderEstimate } from '../../presenters/assembly.presenter';
import { route } from '../route-table';

export const assemblyRoutes = [
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/estimate/',
    requirement: 'build',
    handle: async ({ services, caller, body }) => {
      const view = await services.assembly.estimate(caller, parseAssemblyRequest(body));
      return { status: 200, headers: estimateHeaders(view), body: renderEstimate(view) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/',
    requirement: 'build',
    idempotent: true,
    handle: async ({ services, caller, body }) => {
      const view = await services.pipeline.assemble(caller, parseAssemblyRequest(body));
      const headers = assembleHeaders(view);
      if (view.mode === 'mixed') return { status: 202, headers, body: renderAssemblyJob(view) };
      return { status: 200, headers, body: renderBuiltModel(view) };
    },
  }),
];
