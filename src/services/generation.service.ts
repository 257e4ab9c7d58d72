import type { DataSource } from 'typeorm';
import type { Job } from '../entities/job.entity';
import { conflict, forbidden, isDatabaseUnavailable, keyScope } from '../lib/errors';
import type { Links } from '../lib/links';
import type { AppProfile } from '../packages/app-compose';
import type { GenerationKind, GenerationRequest } from '../parsers/generation.parser';
import { renderGeneration, type ChargeView, type GenerationView } from '../presenters/generation.presenter';
import type { Caller } from './auth.service';
import type { CatalogService } from './catalog.service';
import type { JobOutcome, JobsService } from './jobs.service';
import { transactionRetried } from '../db/transaction';
import type { LedgerService } from '../money';
import type { PackageService } from './package.service';

/** Package and application generation, inside the request or as a job: the same checks, the same result. */
export class GenerationService {
  constructor(
    private readonly db: DataSource,
    private readonly catalog: CatalogService,
    private readonly packages: PackageService,
    private readonly jobs: JobsService,
    private readonly ledger: LedgerService,
    private readonly links: Links,
    private readonly appDownloadCredits: () => number,
  ) {}

  /** Published model, owner or staff; a package only once (409 with the existing package_url); an application
   * download needs `spend` and a key limit and wallet that cover APP_DOWNLOAD_CREDITS, checked before a job exists
   * (the same rule as a mixed assembly). */
  async admit(caller: Caller, request: GenerationRequest): Promise<void> {
    const model = await this.catalog.requireVisibleModel(request.dmCtId, { userId: caller.user.id });
    if (model.ownerId !== caller.user.id && !caller.user.isStaff) throw forbidden('Only the model’s owner or staff can generate it.');
    if (!model.published) throw conflict('not_published', 'Generation needs a published model: publish it first.', { dm_ct_id: request.dmCtId });
    if (request.kind === 'generate_package') {
      const existing = await this.packages.isGenerated(request.dmCtId);
      if (existing)
        throw conflict('already_generated', 'This model’s package was generated already.', { package_url: existing, dm_ct_id: request.dmCtId });
      return;
    }
    if (caller.key && !caller.key.scopes.includes('spend')) throw keyScope('spend', caller.key.scopes);
    await this.ledger.assertCanPay(caller, this.appDownloadCredits());
  }

  /** The job, its queue message and, for a paid application download, a hold on its price, in one transaction. */
  async enqueue(caller: Caller, request: GenerationRequest): Promise<Job> {
    await this.admit(caller, request);
    return transactionRetried(this.db, async (manager) => {
      const job = await this.jobs.enqueue(manager, {
        kind: request.kind,
        userId: caller.user.id,
        apiKeyId: caller.key?.id ?? null,
        request: { dm_ct_id: request.dmCtId, profile: request.profile },
        dmCtId: request.dmCtId,
      });
      if (request.kind === 'generate_app') {
        const reason = `application download: ${request.dmCtId} (${request.profile})`;
        await this.ledger.hold(
          { userId: caller.user.id, amount: this.appDownloadCredits(), reason, apiKeyId: caller.key?.id ?? null, jobId: job.id },
          manager,
        );
      }
      return job;
    });
  }

  /** enqueue, with what an application download will charge and the wallet's balance, for the 202's headers. */
  async enqueueCharged(caller: Caller, request: GenerationRequest): Promise<{ job: Job; charge: ChargeView | null }> {
    const job = await this.enqueue(caller, request);
    if (request.kind !== 'generate_app') return { job, charge: null };
    const wallet = await this.ledger.wallet(caller.user.id);
    return { job, charge: { estimatedCostCredits: this.appDownloadCredits(), balanceCredits: wallet.balanceCredits } };
  }

  async runInline(caller: Caller, request: GenerationRequest): Promise<GenerationView> {
    await this.admit(caller, request);
    return this.generate(request, { userId: caller.user.id, apiKeyId: caller.key?.id ?? null, jobId: null, idempotencyKey: undefined });
  }

  /** A generation job (the runner has started it at `generating`): the same generation as inside a request, its
   * charge keyed to the job so a retried attempt pays once. */
  async generateJob(job: Job): Promise<JobOutcome> {
    const request = job.request as { dm_ct_id: string; profile: AppProfile };
    const result = await this.generate(
      { kind: job.kind as GenerationKind, dmCtId: request.dm_ct_id, profile: request.profile },
      { userId: job.userId, apiKeyId: job.apiKeyId, jobId: job.id, idempotencyKey: `job:${job.ctId}:app_download` },
    );
    return { result: renderGeneration(result) };
  }

  private async generate(
    request: GenerationRequest,
    payer: { userId: number; apiKeyId: number | null; jobId: number | null; idempotencyKey: string | undefined },
  ): Promise<GenerationView> {
    const generated = (packageUrl: string | null) => ({
      dmCtId: request.dmCtId,
      modelUrl: this.links.model(request.dmCtId),
      catalogUrl: this.links.modelSearch(request.dmCtId),
      packageUrl,
    });
    if (request.kind === 'generate_package') {
      const { packageUrl } = await this.packages.generatePackage(request.dmCtId);
      return { ...generated(packageUrl), profile: null, appName: null, appUrl: null };
    }
    const price = this.appDownloadCredits();
    const charge = {
      userId: payer.userId,
      amount: price,
      reason: `application download: ${request.dmCtId} (${request.profile})`,
      apiKeyId: payer.apiKeyId,
      idempotencyKey: payer.idempotencyKey,
    };
    // A job captures the hold its admission placed; a request inside the HTTP call pays at once.
    const paid = payer.jobId === null ? await this.ledger.charge(charge) : await this.ledger.capture({ ...charge, jobId: payer.jobId });
    try {
      const app = await this.packages.generateApp(request.dmCtId, request.profile);
      const packageUrl = await this.packages.isGenerated(request.dmCtId);
      const charge = { estimatedCostCredits: price, balanceCredits: paid.balanceCredits };
      return { ...generated(packageUrl), profile: request.profile, appName: app.appName, appUrl: app.appUrl, charge };
    } catch (error) {
      // After an outage the job's retry finds the charge by its key and finishes the work it paid for.
      if (paid.ledgerEntryId && !paid.alreadyCharged && !isDatabaseUnavailable(error))
        await this.ledger.refund(paid.ledgerEntryId, `refund: application generation failed for ${request.dmCtId}`);
      throw error;
    }
  }
}
