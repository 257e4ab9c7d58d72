import { parseAssemblyRequest } from '../../parsers/assembly.parser';
import { assembleHeaders, estimateHeaders, renderAssemblyJob, renderBuiltModel, renderEstimate } from '../../presenters/assembly.presenter';
import { route } from '../route-table';
import { assemblyBodySchema } from '../../parsers/assembly.schema';
import { assemblyJobSchema, builtModelSchema, estimateSchema } from '../../presenters/assembly.schema';

export const assemblyRoutes = [
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/estimate/',
    requirement: 'build',
    doc: {
      summary: 'Price an assembly',
      tag: 'Assembly',
      requestBody: { contentType: 'application/json', schema: assemblyBodySchema },
      responses: { 200: { description: 'What would be reused, minted and charged.', schema: estimateSchema } },
    },
    handle: async ({ services, caller, body }) => {
      const view = await services.assembly.estimate(caller, parseAssemblyRequest(body));
      return { status: 200, headers: estimateHeaders(view), body: renderEstimate(view) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/dmgen/assemble/',
    requirement: 'build',
    charges: 'assembly',
    doc: {
      summary: 'Assemble a model (charged; X-SDC cost headers)',
      tag: 'Assembly',
      requestBody: { contentType: 'application/json', schema: assemblyBodySchema },
      responses: {
        200: { description: 'Built at once (reuse only).', schema: builtModelSchema },
        202: { description: 'Queued (components to mint).', schema: assemblyJobSchema },
      },
    },
    idempotent: true,
    handle: async ({ services, caller, body }) => {
      const view = await services.pipeline.assemble(caller, parseAssemblyRequest(body));
      const headers = assembleHeaders(view);
      if (view.mode === 'mixed') return { status: 202, headers, body: renderAssemblyJob(view) };
      return { status: 200, headers, body: renderBuiltModel(view) };
    },
  }),
];
