import { readFile } from 'node:fs/promises';
import { readMultipart } from '../../http/multipart';
import { discardAll } from '../../storage/incoming-file';
import { sha256Hex } from '../../lib/crypto';
import { badRequest } from '../../lib/errors';
import { parseAsyncFlag, parseGenerationRequest, type GenerationKind } from '../../parsers/generation.parser';
import { chargeHeaders } from '../../money';
import { renderGeneration, type ChargeView } from '../../presenters/generation.presenter';
import { renderJob } from '../../presenters/job.presenter';
import type { Caller } from '../../services/auth.service';
import { route, type RouteContext } from '../route-table';
import { generationBodySchema } from '../../parsers/generation.schema';
import { generationSchema } from '../../presenters/generation.schema';
import { jobSchema } from '../../presenters/job.schema';
import { bool, int, obj, str, type JsonSchema } from '../../lib/json-schema';

const acceptedJob: JsonSchema = obj({ job_ct_id: str(), job_url: str(), task_id: { type: ['string', 'null'] }, job: jobSchema });
const generateDoc = (summary: string, description?: string) => ({
  summary,
  tag: 'Generation',
  ...(description ? { description } : {}),
  query: { profile: str(), async: bool },
  requestBody: { contentType: 'application/json', schema: generationBodySchema, required: false },
  responses: { 200: { description: 'Generated inline.', schema: generationSchema }, 202: { description: 'Queued (async).', schema: acceptedJob } },
});

/** An application download charges: its answers carry the X-SDC headers like every charging answer. */
const moneyHeaders = (charge: ChargeView | null | undefined) => (charge ? chargeHeaders(charge.estimatedCostCredits, charge.balanceCredits) : {});

const generate = (kind: GenerationKind) => async (ctx: RouteContext<Caller>) => {
  const body = ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : {};
  const { services, caller } = ctx;
  const request = parseGenerationRequest(kind, ctx.params.ctId, body.profile ?? ctx.query.profile);
  if (parseAsyncFlag(ctx.query.async, body.async)) {
    const { job: queued, charge } = await services.generation.enqueueCharged(caller, request);
    const job = services.jobs.admittedView(queued);
    return { status: 202, headers: moneyHeaders(charge), body: { job_ct_id: job.ctId, job_url: job.url, task_id: job.taskId, job: renderJob(job) } };
  }
  const view = await services.generation.runInline(caller, request);
  return { status: 200, headers: moneyHeaders(view.charge), body: renderGeneration(view) };
};

export const generationRoutes = [
  route({
    method: 'post',
    path: '/api/v1/dmgen/dms/:ctId/generate/',
    requirement: 'build',
    idempotent: true,
    handle: generate('generate_package'),
    doc: generateDoc('Generate the model package'),
  }),
  route({
    method: 'post',
    path: '/api/v1/dmgen/dms/:ctId/generate_app/',
    requirement: 'spend',
    charges: 'app_download',
    idempotent: true,
    handle: generate('generate_app'),
    doc: generateDoc(
      'Generate the application package (charged)',
      'Charges the application download: X-SDC-Estimated-Cost, X-SDC-Balance-Remaining (dollars) and their -Credits twins ' +
        'on the 200, the 202 (price and balance beside its hold) and the 402 insufficient_funds; 403 key_spend_limit ' +
        'when the key cannot pay. Nothing is charged or queued when refused.',
    ),
  }),
  route({
    method: 'post',
    path: '/api/v1/uploader/api/data-sources/',
    requirement: 'build',
    charges: 'csv_upload',
    doc: {
      summary: 'Upload a CSV data source (charged: N columns × 100 + 500 credits, held now, captured by the job)',
      tag: 'Generation',
      requestBody: { contentType: 'multipart/form-data', schema: obj({ file: str({ contentMediaType: 'text/csv' }) }) },
      responses: {
        202: {
          description: 'Stored and queued, its price held (X-SDC cost headers); 402 insufficient_funds or 403 key_spend_limit before any work.',
          schema: obj({
            estimated_cost_credits: int(),
            columns: int(),
            data_source: obj({ ct_id: str(), filename: str(), size: int(), created: str() }),
            data_source_ct_id: str(),
            job: jobSchema,
          }),
        },
      },
    },
    raw: true,
    idempotent: true,
    handle: async ({ services, caller, req, idempotently }) => {
      if (!req.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) {
        throw badRequest('Send the file as multipart/form-data in the field "file".', { details: { file: ['Required.'] } });
      }
      const { files } = await readMultipart(req, services.app.files, { maxFileBytes: services.settings.maxUploadBytes, maxFiles: 1 });
      try {
        const file = files.find((f) => f.fieldName === 'file');
        if (!file) throw badRequest('No file provided: send it in the multipart field "file".', { details: { file: ['Required.'] } });
        const content = await readFile(file.tempPath);
        // A retried upload is the same file under the same name; the multipart boundary differs on every send.
        return await idempotently({ filename: file.filename, sha256: sha256Hex(content) }, async () => {
          const { source, job, charge } = await services.dataSources.accept(caller, { filename: file.filename, contentType: '', content });
          return {
            status: 202,
            headers: chargeHeaders(charge.estimatedCostCredits, charge.balanceCredits),
            body: {
              estimated_cost_credits: charge.estimatedCostCredits,
              columns: charge.columns,
              data_source: { ct_id: source.ctId, filename: source.filename, size: source.sizeBytes, created: source.createdAt.toISOString() },
              data_source_ct_id: source.ctId,
              job: renderJob(services.jobs.admittedView(job)),
            },
          };
        });
      } finally {
        await discardAll(services.app.files, files);
      }
    },
  }),
];
