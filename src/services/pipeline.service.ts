import type { DataSource } from 'typeorm';
import { transactionRetried } from '../db/transaction';
import { isDatabaseUnavailable } from '../lib/errors';
import type { Links } from '../lib/links';
import type { Logger } from '../lib/logger';
import type { AssemblyRequest } from '../parsers/assembly.parser';
import type { AssembleView } from '../presenters/assembly.presenter';
import type { ModelLinks } from '../presenters/job.presenter';
import type { AssemblyService } from './assembly.service';
import type { Caller } from './auth.service';
import type { CatalogForAssembly } from './model-builder';
import { replayOr } from '../money';
import { hideServerPaths } from '../lib/server-paths';

/** What finishing a model needs: publishing its tree and building its package. */
export interface PackagesForPipeline {
  generatePackage(dmCtId: string): Promise<{ packageUrl: string }>;
  isGenerated(dmCtId: string): Promise<string | null>;
}

/** A model finalized: published and generated as asked, or `finalizeError` when that failed. */
type Finalized = ModelLinks & { published: boolean; generated: boolean; finalizeError: string | null };

/** POST assemble, and the steps after a model is built that the reuse path and the assemble job (src/jobs/
 * assemble.task.ts) share. Every step is idempotent (publish and generate check first), so a worker killed
 * anywhere can be replaced by another. */
export class PipelineService {
  constructor(
    private readonly db: DataSource,
    private readonly assembly: AssemblyService,
    private readonly catalog: CatalogForAssembly,
    private readonly packages: PackagesForPipeline,
    private readonly urls: Links,
    private readonly logger: Logger,
  ) {}

  links(dmCtId: string, packageUrl: string | null): ModelLinks {
    return { dmCtId, modelUrl: this.urls.model(dmCtId), catalogUrl: this.urls.modelSearch(dmCtId), packageUrl };
  }

  /** Publishing and generating as the flags ask; a failure here keeps the model links and the charge. */
  async finalize(dmCtId: string, flags: { publish: boolean; generate: boolean }, onStep: (step: string) => Promise<void>): Promise<Finalized> {
    let published = false;
    let generated = false;
    let packageUrl: string | null = null;
    try {
      if (flags.publish) {
        await onStep('publishing');
        await transactionRetried(this.db, (m) => this.catalog.publishModelTree(m, dmCtId));
        published = true;
      }
      if (flags.generate) {
        await onStep('generating');
        packageUrl = (await this.packages.isGenerated(dmCtId)) ?? (await this.packages.generatePackage(dmCtId)).packageUrl;
        generated = true;
      }
      return { ...this.links(dmCtId, packageUrl), published, generated, finalizeError: null };
    } catch (error) {
      // An outage is not the model's fault: a job retries the step instead of recording it.
      if (isDatabaseUnavailable(error)) throw error;
      this.logger.warn({ err: error, dmCtId }, 'finalize failed');
      const message = hideServerPaths(error instanceof Error ? error.message : String(error));
      return { ...this.links(dmCtId, packageUrl), published, generated, finalizeError: message };
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
        packageUrl: null,
        finalizeError: hideServerPaths(error instanceof Error ? error.message : String(error)),
      }));
      const model = result.generated ? { ...built.model, generated: true, packageUrl: this.urls.model(built.model.ctId, 'package') } : built.model;
      return { ...built, model, generated: result.generated, packageUrl: result.packageUrl, finalizeError: result.finalizeError };
    });
  }
}
