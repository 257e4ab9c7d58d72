import { transactionRetried } from '../db/transaction';
import { assemblyRequestFromJob, type AssemblyRequest } from '../parsers/assembly.parser';
import type { ModelLinks } from '../presenters/job.presenter';
import { infrastructureErrorsRetried, releaseHold, type JobTask } from './runner';

declare module '../entities/job.entity' {
  interface JobPayloads {
    assemble: {
      /** The parsed request and the price it was admitted at; jobs queued before the parsed request was stored
       * hold the raw body. */
      request: { assembly: AssemblyRequest; estimatedCostCredits: number } | { body: unknown };
      /** The model built. Publishing and generating, once finalized; `finalizeError` when that failed (the job
       * failed, the model and its charge stay). A job that failed after the build keeps only the links. */
      result: ModelLinks & { published?: boolean; generated?: boolean; finalizeError?: string };
    };
  }
}

/** assemble: a mixed assembly request (the runner starts it at `parsing`): planned again, then built and charged in
 * one transaction (nothing is built that is not paid for; a revoked key rolls the build back and the runner
 * releases the hold), then finalized (published and generated as asked, the same step as the reuse path's). A
 * failure after the build keeps the model's links on the job. */
export const assembleTask: JobTask<'assemble'> = {
  kinds: ['assemble'],
  queueOptions: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 300 },
  firstStep: 'parsing',
  policy: infrastructureErrorsRetried,
  giveUp: releaseHold,
  async run(services, job, progress) {
    const plan = await services.assembly.plan(assemblyRequestFromJob(job.request));
    await progress.step('parsed');
    await progress.step('agent_processing');
    await progress.step('modeling');
    const model = await transactionRetried(services.db, async (m) => {
      const built = await services.builder.build(m, plan.request, job.userId, { publish: false, mintKeyPrefix: `job:${job.ctId}` });
      await services.ledger.capture(
        {
          userId: job.userId,
          amount: plan.totalCredits,
          reason: `assemble: ${plan.request.title}`,
          idempotencyKey: `job:${job.ctId}:charge`,
          apiKeyId: job.apiKeyId,
          jobId: job.id,
        },
        m,
      );
      return built;
    });
    await services.jobs.update(job.id, { dmCtId: model.dmCtId });
    progress.keepOnFailure(services.pipeline.links(model.dmCtId, null));
    await progress.step('finalizing');
    const flags = { publish: plan.request.publish, generate: plan.request.generate };
    const { finalizeError, ...finalized } = await services.pipeline.finalize(model.dmCtId, flags, (name) => progress.step(name));
    return finalizeError === null ? { result: finalized } : { result: { ...finalized, finalizeError }, error: `finalize_error: ${finalizeError}` };
  },
};
