import type { DataSource } from 'typeorm';
import type { Job } from '../entities/job.entity';
import { DomainError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { assemblyRequestFromJob, type AssemblyRequest } from '../parsers/assembly.parser';
import type { AssembleView } from '../presenters/assembly.presenter';
import type { AssemblyService, CatalogForAssembly } from './assembly.service';
import type { Caller } from './auth.service';
import type { JobsService } from './jobs.service';
import type { LedgerService } from './ledger.service';
import { modelUrl } from './package.service';

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
    private readonly catalog: CatalogForAssembly,
    private readonly packages: PackagesForPipeline,
    private readonly ledger: LedgerService,
    private readonly baseUrl: () => string,
    private readonly logger: Logger,
    private readonly stepDelayMs: number,
  ) {}

  links(dmCtId: string, packageUrl: string | null): ModelLinks {
    const base = this.baseUrl();
    return {
      dm_ct_id: dmCtId,
      model_url: modelUrl(base, dmCtId),
      catalog_url: `${base}/api/v1/catalog/dms/?search=${encodeURIComponent(dmCtId)}`,
      package_url: packageUrl,
    };
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
      this.logger.warn({ err: error, dmCtId }, 'finalize failed');
      const message = error instanceof Error ? error.message : String(error);
      return { ...this.links(dmCtId, packageUrl), published, generated, finalize_error: message };
    }
  }

  /** POST assemble: the reuse path builds now (200); the mixed path answers with a queued job (202). */
  async assemble(caller: Caller, request: AssemblyRequest): Promise<AssembleView> {
    const plan = await this.assembly.admit(caller, request);
    if (plan.mode === 'mixed') return this.assembly.enqueueMixed(caller, plan);
    const { model, balanceCredits } = await this.assembly.assembleReuse(caller, plan);
    const result = await this.finalize(model.dmCtId, { publish: false, generate: plan.request.generate }, async () => undefined);
    return {
      mode: 'reuse',
      model: await this.catalog.modelDetail(model.dmCtId, { userId: caller.user.id }),
      published: model.published,
      generated: result.generated,
      modelUrl: result.model_url,
      packageUrl: result.package_url,
      finalizeError: result.finalize_error,
      estimatedCostCredits: plan.totalCredits,
      balanceCredits,
    };
  }

  async runAssemble(jobCtId: string): Promise<void> {
    const job = await this.jobs.byCtId(jobCtId);
    if (job.status === 'completed' || job.status === 'failed') return;
    const step = async (name: string) => {
      await this.jobs.update(job.id, { status: 'running', step: name });
      if (this.stepDelayMs) await new Promise((r) => setTimeout(r, this.stepDelayMs));
    };
    await this.jobs.start(job.id, 'parsing');
    if (this.stepDelayMs) await new Promise((r) => setTimeout(r, this.stepDelayMs));
    let plan;
    try {
      plan = await this.assembly.plan(assemblyRequestFromJob(job.request));
    } catch (error) {
      await this.fail(job, error);
      return;
    }
    await step('parsed');
    await step('agent_processing');
    await step('modeling');
    let dmCtId: string;
    try {
      const model = await this.db.transaction((m) =>
        this.assembly.build(m, plan.request, job.userId, { publish: false, mintKeyPrefix: `job:${job.ctId}` }),
      );
      dmCtId = model.dmCtId;
      await this.jobs.update(job.id, { dmCtId });
    } catch (error) {
      await this.fail(job, error);
      return;
    }
    try {
      await this.ledger.charge({
        userId: job.userId,
        amount: plan.totalCredits,
        reason: `assemble: ${plan.request.title}`,
        idempotencyKey: `job:${job.ctId}:charge`,
        apiKeyId: job.apiKeyId,
        jobId: job.id,
      });
    } catch (error) {
      await this.fail(job, error, this.links(dmCtId, null));
      return;
    }
    await step('finalizing');
    const result = await this.finalize(dmCtId, { publish: plan.request.publish, generate: plan.request.generate }, step);
    if (result.finalize_error) {
      await this.jobs.update(job.id, { status: 'failed', step: 'done', result, error: `finalize_error: ${result.finalize_error}` });
      return;
    }
    const { finalize_error: _none, ...links } = result;
    await this.jobs.update(job.id, { status: 'completed', step: 'done', result: links, error: null });
  }

  private async fail(job: Job, error: unknown, result: Record<string, unknown> | null = null): Promise<void> {
    if (!(error instanceof DomainError)) this.logger.error({ err: error, jobId: job.ctId }, 'job failed');
    const message = error instanceof Error ? error.message : String(error);
    await this.jobs.update(job.id, { status: 'failed', error: message, result });
  }
}
