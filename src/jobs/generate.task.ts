import type { GenerationRequest } from '../parsers/generation.parser';
import type { GenerationView } from '../presenters/generation.presenter';
import { infrastructureErrorsRetried, releaseHold, type JobTask } from './runner';

/** What a generation job was asked for: the model and the application's profile (`os` for a package); the kind
 * is the job's. */
type GenerationJobRequest = Omit<GenerationRequest, 'kind'>;

/** What it produced: the package's links and, for an application, its profile, name and URL (the generate
 * endpoint's body, without the charge, which the ledger shows). */
type GenerationJobResult = Omit<GenerationView, 'charge'>;

declare module '../entities/job.entity' {
  interface JobPayloads {
    generate_package: { request: GenerationJobRequest; result: GenerationJobResult };
    generate_app: { request: GenerationJobRequest; result: GenerationJobResult };
  }
}

/** generate_package and generate_app (the runner starts them at `generating`): the same generation as inside a
 * request (GenerationService.generate), an application's charge keyed to the job so a retried attempt pays once. */
export const generateTask: JobTask<'generate_package' | 'generate_app'> = {
  kinds: ['generate_package', 'generate_app'],
  queueOptions: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 300 },
  firstStep: 'generating',
  policy: infrastructureErrorsRetried,
  giveUp: releaseHold,
  async run(services, job) {
    const request = { kind: job.kind, dmCtId: job.request.dmCtId, profile: job.request.profile };
    const payer = { userId: job.userId, apiKeyId: job.apiKeyId, jobId: job.id, idempotencyKey: `job:${job.ctId}:app_download` };
    const { charge: _charge, ...result } = await services.generation.generate(request, payer);
    return { result };
  },
};
