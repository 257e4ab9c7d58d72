import type { DataSource } from 'typeorm';
import type { Job } from '../entities/job.entity';
import { conflict, forbidden, isDatabaseUnavailable } from '../lib/errors';
import type { Links } from '../lib/links';
import type { GenerationRequest } from '../parsers/generation.parser';
import type { ChargeView, GenerationView } from '../presenters/generation.presenter';
import type { Caller } from './auth.service';
import type { CatalogService } from './catalog.service';
import type { JobsService } from './jobs.service';
import { transactionRetried } from '../db/transaction';
import {
  clearOutcome,
  currentClaim,
  decodeResult,
  recordOutcome,
  replayOr,
  type ChargeRequest,
  type ChargeResult,
  type LedgerService,
} from '../money';
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
    await this.ledger.assertCanPay(caller, this.appDownloadCredits());
  }

  /** The job, its queue message and, for a paid application download, a hold on its price, in one transaction. */
  async enqueue(caller: Caller, request: GenerationRequest): Promise<Job> {
    return (await this.enqueueCharged(caller, request)).job;
  }

  /** enqueue, with what an application download will charge and the wallet's balance (from the hold), for the
   * 202's headers; recorded with an Idempotency-Key's claim in the same transaction, and replayed from it. */
  enqueueCharged(caller: Caller, request: GenerationRequest): Promise<{ job: Job; charge: ChargeView | null }> {
    return replayOr(async () => {
      await this.admit(caller, request);
      return transactionRetried(this.db, async (manager) => {
        const job = await this.jobs.enqueue(manager, {
          kind: request.kind,
          userId: caller.user.id,
          apiKeyId: caller.key?.id ?? null,
          request: { dmCtId: request.dmCtId, profile: request.profile },
          dmCtId: request.dmCtId,
        });
        let charge: ChargeView | null = null;
        if (request.kind === 'generate_app') {
          const reason = `application download: ${request.dmCtId} (${request.profile})`;
          const amount = this.appDownloadCredits();
          const held = await this.ledger.hold({ userId: caller.user.id, amount, reason, apiKeyId: caller.key?.id ?? null, jobId: job.id }, manager);
          charge = { estimatedCostCredits: amount, balanceCredits: held.balanceCredits };
        }
        const result = { job, charge };
        await recordOutcome(manager, {
          charged: charge?.estimatedCostCredits ?? 0,
          ledgerEntryId: null,
          resource: { type: 'job', id: job.ctId },
          result,
        });
        return result;
      });
    });
  }

  /** Inside the request. A retry of a committed application download (its Idempotency-Key's outcome recorded with
   * the charge) is not charged again: it generates what it paid for. */
  async runInline(caller: Caller, request: GenerationRequest): Promise<GenerationView> {
    const paid = currentClaim()?.replay;
    if (!paid) await this.admit(caller, request);
    const already = paid ? { ledgerEntryId: paid.ledgerEntryId, ...decodeResult<{ balanceCredits: number }>(paid.result) } : null;
    return this.generate(request, { userId: caller.user.id, apiKeyId: caller.key?.id ?? null, jobId: null, idempotencyKey: undefined }, already);
  }

  /** A generation, inside a request or as a job (src/jobs/generate.task.ts, whose `payer` names the job and its
   * charge key, so a retried attempt captures once). */
  async generate(
    request: GenerationRequest,
    payer: { userId: number; apiKeyId: number | null; jobId: number | null; idempotencyKey: string | undefined },
    already: { ledgerEntryId: number | null; balanceCredits: number } | null = null,
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
    // A job captures the hold its admission placed; a request inside the HTTP call pays at once, its claim's outcome
    // in the same transaction (a replay was paid for already).
    const paid = already
      ? { ...already, alreadyCharged: true }
      : payer.jobId === null
        ? await this.chargeInline(charge)
        : await transactionRetried(this.db, (m) => this.ledger.capture({ ...charge, jobId: payer.jobId! }, m));
    try {
      const app = await this.packages.generateApp(request.dmCtId, request.profile);
      const packageUrl = await this.packages.isGenerated(request.dmCtId);
      const charge = { estimatedCostCredits: price, balanceCredits: paid.balanceCredits };
      return { ...generated(packageUrl), profile: request.profile, appName: app.appName, appUrl: app.appUrl, charge };
    } catch (error) {
      // After an outage the job's retry finds the charge by its key and finishes the work it paid for; when the work
      // itself fails, the job's charge is refunded, whichever attempt made it (an inline replay was paid and answered).
      const refundable = !paid.alreadyCharged || payer.jobId !== null;
      if (paid.ledgerEntryId && refundable && !isDatabaseUnavailable(error)) {
        const chargeId = paid.ledgerEntryId;
        await transactionRetried(this.db, async (manager) => {
          await this.ledger.refund(chargeId, `refund: application generation failed for ${request.dmCtId}`, manager);
          if (payer.jobId === null) await clearOutcome(manager);
        });
      }
      throw error;
    }
  }

  private chargeInline(charge: ChargeRequest): Promise<ChargeResult> {
    return transactionRetried(this.db, async (manager) => {
      const paid = await this.ledger.charge(charge, manager);
      const resource = { type: 'app', id: charge.reason };
      const result = { balanceCredits: paid.balanceCredits };
      await recordOutcome(manager, { charged: charge.amount, ledgerEntryId: paid.ledgerEntryId, resource, result });
      return paid;
    });
  }
}
