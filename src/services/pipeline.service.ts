import type { DataSource } from 'typeorm';
import type { Job } from '../entities/job.entity';
import { isDatabaseUnavailable } from '../lib/errors';
import type { Links } from '../lib/links';
import type { Logger } from '../lib/logger';
import { assemblyRequestFromJob, type AssemblyRequest } from '../parsers/assembly.parser';
import type { AssembleView } from '../presenters/assembly.presenter';
import type { AssemblyService } from './assembly.service';
import type { Caller } from './auth.service';
import type { CatalogForAssembly, ModelBuilder } from './model-builder';
import type { JobOutcome, JobProgress, JobsService } from './jobs.service';
import { transactionRetried } from '../db/transaction';
import { replayOr, type LedgerService } from '../money';
import { hideServerPaths } from '../lib/server-paths';

/** What finishing a model needs: publishing its tree and building its package. */
export interface PackagesForPipeline {
  generatePackage(dmCtId: string): Promise<{ packageUrl: string }>;
  isGenerated(dmCtId: string): Promise<string | null>;
}

export type ModelLinks = {
  dm_ct_id: string;
  model_url: string;
  catalog_url: string;
  package_url: string | null;
};

/** Runs the steps of long jobs. Every step is idempotent (mint keys, a ledger key per job and purpose,
 * publish and generate that check first), so a worker killed anywhere can be replaced by another. */
export class PipelineService {
  constructor(
    private readonly db: DataSource,
    private readonly jobs: JobsService,
    private readonly assembly: AssemblyService,
    private readonly builder: ModelBuilder,
    private readonly catalog: CatalogForAssembly,
    private readonly packages: PackagesForPipeline,
    private readonly ledger: LedgerService,
    private readonly urls: Links,
    private readonly logger: Logger,
  ) {}

  links(dmCtId: string, packageUrl: string | null): ModelLinks {
    return { dm_ct_id: dmCtId, model_url: this.urls.model(dmCtId), catalog_url: this.urls.modelSearch(dmCtId), package_url: packageUrl };
  }

  /** Publishing and generating as the flags ask; a failure here keeps the model links and the charge. */
  async finalize(dmCtId: string, flags: { publish: boolean; generate: boolean }, onStep: (step: string) => Promise<void>) {
    let published = false;
    let generated = false;
    let packageUrl: string | null = null;
    try {
      if (flags.publish) {
        await onStep('publishing');
        await this.db.transaction((m) => this.catalog.publishModelTree(m, dmCtId));
        published = true;
      }
      if (flags.generate) {
        await onStep('generating');
        packageUrl = (await this.packages.isGenerated(dmCtId)) ?? (await this.packages.generatePackage(dmCtId)).packageUrl;
        generated = true;
      }
      return { ...this.links(dmCtId, packageUrl), published, generated, finalize_error: null as string | null };
    } catch (error) {
      // An outage is not the model's fault: a job retries the step instead of recording it.
      if (isDatabaseUnavailable(error)) throw error;
      this.logger.warn({ err: error, dmCtId }, 'finalize failed');
      const message = hideServerPaths(error instanceof Error ? error.message : String(error));
      return { ...this.links(dmCtId, packageUrl), published, generated, finalize_error: message };
    }
  }

  /** POST assemble: the reuse path builds now (200); the mixed path answers with a queued job (202). A retry of a
   * committed request with its Idempotency-Key answers the recorded view (replayOr). Generating after the commit
   * never fails the request: a failure, even an outage, is its finalize_error. */
  assemble(caller: Caller, request: AssemblyRequest): Promise<AssembleView> {
    return replayOr(async () => {
      const plan = await this.assembly.admit(caller, request);
      if (plan.mode === 'mixed') return this.assembly.enqueueMixed(caller, plan);
      const built = await this.assembly.assembleReuse(caller, plan);
      if (!plan.request.generate) return built;
      const result = await this.finalize(built.model.ctId, { publish: false, generate: true }, async () => undefined).catch((error: unknown) => ({
        generated: false,
        package_url: null,
        finalize_error: hideServerPaths(error instanceof Error ? error.message : String(error)),
      }));
      const model = result.generated ? { ...built.model, generated: true, packageUrl: this.urls.model(built.model.ctId, 'package') } : built.model;
      return { ...built, model, generated: result.generated, packageUrl: result.package_url, finalizeError: result.finalize_error };
    });
  }

  /** The assemble job's steps after `parsing` (the runner starts the job there): plan, then build and capture
   * the hold in one transaction (nothing is built that is not paid for; a revoked key rolls the build back and
   * the runner releases the hold), then finalize. A failure after that keeps the model's links on the job. */
  async assembleJob(job: Job, progress: JobProgress): Promise<JobOutcome> {
    const plan = await this.assembly.plan(assemblyRequestFromJob(job.request));
    await progress.step('parsed');
    await progress.step('agent_processing');
    await progress.step('modeling');
    const model = await transactionRetried(this.db, async (m) => {
      const built = await this.builder.build(m, plan.request, job.userId, { publish: false, mintKeyPrefix: `job:${job.ctId}` });
      await this.ledger.capture(
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
    await this.jobs.update(job.id, { dmCtId: model.dmCtId });
    progress.keepOnFailure(this.links(model.dmCtId, null));
    await progress.step('finalizing');
    const result = await this.finalize(model.dmCtId, { publish: plan.request.publish, generate: plan.request.generate }, (name) =>
      progress.step(name),
    );
    const { finalize_error: finalizeError, ...links } = result;
    return finalizeError ? { result, error: `finalize_error: ${finalizeError}` } : { result: links };
  }
}
