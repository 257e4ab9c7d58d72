import type { DataSource } from 'typeorm';
import type { Job, JobKind } from '../entities/job.entity';
import { conflict, forbidden, keyScope } from '../lib/errors';
import type { Caller } from './auth.service';
import type { CatalogService } from './catalog.service';
import type { JobsService } from './jobs.service';
import type { LedgerService } from './ledger.service';
import type { AppProfile } from '../packages/app-compose';
import { parseAppProfile, type PackageService } from './package.service';
import type { PipelineService } from './pipeline.service';

export type GenerationKind = Extract<JobKind, 'generate_package' | 'generate_app'>;

export interface GenerationRequest {
  kind: GenerationKind;
  dmCtId: string;
  profile: AppProfile;
}

/** Package and application generation, inside the request or as a job: the same checks, the same result. */
export class GenerationService {
  constructor(
    private readonly db: DataSource,
    private readonly catalog: CatalogService,
    private readonly packages: PackageService,
    private readonly pipeline: PipelineService,
    private readonly jobs: JobsService,
    private readonly ledger: LedgerService,
    private readonly appDownloadCredits: () => number,
  ) {}

  /** What a generate request asks for: a package has no profile; an application's defaults to `os`. */
  request(kind: GenerationKind, dmCtId: string, profile: unknown): GenerationRequest {
    return { kind, dmCtId, profile: kind === 'generate_app' ? parseAppProfile(profile) : 'os' };
  }

  /** Published model, owner or staff; a package only once (409 with the existing package_url); an application
   * download needs `spend` and a key limit and wallet that cover APP_DOWNLOAD_CREDITS, checked before a job exists
   * (the same rule as a mixed assembly). */
  async admit(caller: Caller, request: GenerationRequest): Promise<void> {
    const model = await this.catalog.requireVisibleModel(request.dmCtId, { userId: caller.user.id });
    if (model.ownerId !== caller.user.id && !caller.user.isStaff) throw forbidden('Only the model’s owner or staff can generate it.');
    if (!model.published) throw conflict('not_published', 'Generation needs a published model: publish it first.', { dm_ct_id: request.dmCtId });
    if (request.kind === 'generate_package') {
      const existing = await this.packages.isGenerated(request.dmCtId);
      if (existing) throw conflict('already_generated', 'This model’s package was generated already.', { package_url: existing, dm_ct_id: request.dmCtId });
      return;
    }
    if (caller.via === 'key' && !caller.key!.scopes.includes('spend')) throw keyScope('spend', caller.key!.scopes);
    await this.ledger.assertCanPay(caller, this.appDownloadCredits());
  }

  async enqueue(caller: Caller, request: GenerationRequest): Promise<Job> {
    await this.admit(caller, request);
    return this.db.transaction((manager) =>
      this.jobs.enqueue(manager, {
        kind: request.kind,
        userId: caller.user.id,
        apiKeyId: caller.key?.id ?? null,
        request: { dm_ct_id: request.dmCtId, profile: request.profile },
        dmCtId: request.dmCtId,
      }),
    );
  }

  async runInline(caller: Caller, request: GenerationRequest): Promise<Record<string, unknown>> {
    await this.admit(caller, request);
    return this.generate(request, { userId: caller.user.id, apiKeyId: caller.key?.id ?? null, jobId: null, idempotencyKey: undefined });
  }

  async runJob(jobCtId: string): Promise<void> {
    const job = await this.jobs.byCtId(jobCtId);
    if (job.status === 'completed' || job.status === 'failed') return;
    await this.jobs.start(job.id, 'generating');
    const request = job.request as { dm_ct_id: string; profile: AppProfile };
    try {
      const result = await this.generate(
        { kind: job.kind as GenerationKind, dmCtId: request.dm_ct_id, profile: request.profile },
        { userId: job.userId, apiKeyId: job.apiKeyId, jobId: job.id, idempotencyKey: `job:${job.ctId}:app_download` },
      );
      await this.jobs.update(job.id, { status: 'completed', step: 'done', result });
    } catch (error) {
      await this.jobs.update(job.id, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }

  private async generate(
    request: GenerationRequest,
    payer: { userId: number; apiKeyId: number | null; jobId: number | null; idempotencyKey: string | undefined },
  ): Promise<Record<string, unknown>> {
    if (request.kind === 'generate_package') {
      const { packageUrl } = await this.packages.generatePackage(request.dmCtId);
      return { ...this.pipeline.links(request.dmCtId, packageUrl) };
    }
    const price = this.appDownloadCredits();
    const charge = await this.ledger.charge({
      userId: payer.userId,
      amount: price,
      reason: `application download: ${request.dmCtId} (${request.profile})`,
      apiKeyId: payer.apiKeyId,
      jobId: payer.jobId,
      idempotencyKey: payer.idempotencyKey,
    });
    try {
      const app = await this.packages.generateApp(request.dmCtId, request.profile);
      const packageUrl = await this.packages.isGenerated(request.dmCtId);
      return { ...this.pipeline.links(request.dmCtId, packageUrl), profile: request.profile, app_name: app.appName, app_url: app.appUrl };
    } catch (error) {
      if (charge.ledgerEntryId && !charge.alreadyCharged) await this.ledger.refund(charge.ledgerEntryId, `refund: application generation failed for ${request.dmCtId}`);
      throw error;
    }
  }
}
