import { createId } from '@paralleldrive/cuid2';
import type { DataSource, EntityManager } from 'typeorm';
import { rows } from '../db/sql';
import { DataSourceRecord } from '../entities/data-source.entity';
import { conflict, DomainError, keyScope } from '../lib/errors';
import type { Links } from '../lib/links';
import { assemblyJobRequest, estimateId, type AssemblyRequest, type ClusterSpec } from '../parsers/assembly.parser';
import {
  estimateView,
  renderProblem,
  type AssemblyJobView,
  type EstimateView,
  type MintView,
  type ProblemView,
  type ReuseView,
} from '../presenters/assembly.presenter';
import type { Caller } from './auth.service';
import type { ModelView } from '../presenters/catalog.presenter';
import type { Viewer } from './catalog.service';
import type { Clock } from './clock';
import type { JobsService } from './jobs.service';
import type { LedgerService } from './ledger.service';

/** Prices in credits (1,000 per dollar): one rule for the estimate and both assembly paths. */
export const PRICES = { model: 500, cluster: 100, component: 100, reuse: 0 } as const;

export type CatalogStatus = 'draft' | 'published' | 'retired';

/** What assembly needs from the catalog (CatalogService provides it). */
export interface CatalogForAssembly {
  findComponentsByCtIds(
    ctIds: string[],
    manager?: EntityManager,
  ): Promise<
    Map<string, { ctId: string; label: string; dataType: string; status: CatalogStatus; successorCtId: string | null; ownerId: number | null }>
  >;
  findClustersByCtIds(
    ctIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, { ctId: string; label: string; status: CatalogStatus; successorCtId: string | null; ownerId: number | null }>>;
  createComponent(
    manager: EntityManager,
    input: {
      label: string;
      dataType: string;
      description: string | null;
      units: string | null;
      status: CatalogStatus;
      ownerId: number;
      mintKey?: string;
    },
  ): Promise<{ id: number; ctId: string }>;
  createCluster(
    manager: EntityManager,
    input: {
      label: string;
      description: string | null;
      status: CatalogStatus;
      ownerId: number;
      children: Array<{ componentId: number } | { clusterId: number }>;
      mintKey?: string;
    },
  ): Promise<{ id: number; ctId: string }>;
  createDataModel(
    manager: EntityManager,
    input: {
      title: string;
      description: string | null;
      rootClusterId: number;
      contextual: Record<string, unknown>;
      published: boolean;
      ownerId: number;
      mintKey?: string;
    },
  ): Promise<{ id: number; ctId: string }>;
  publishModelTree(manager: EntityManager, dmCtId: string): Promise<void>;
  modelDetail(dmCtId: string, viewer: Viewer): Promise<ModelView>;
}

export interface Plan {
  request: AssemblyRequest;
  estimateId: string;
  mode: 'reuse' | 'mixed';
  reuse: ReuseView[];
  mint: MintView[];
  problems: ProblemView[];
  modelCredits: number;
  mintCredits: number;
  totalCredits: number;
}

export interface BuiltModel {
  dmCtId: string;
  published: boolean;
}

/** A failure of the build itself (not of the request): the reuse path refunds its charge. */
const buildFailed = (cause: unknown) => new DomainError(500, 'build_failed', 'The model could not be built; the charge was refunded.', {}, { cause });

export class AssemblyService {
  constructor(
    private readonly db: DataSource,
    private readonly catalog: CatalogForAssembly,
    private readonly ledger: LedgerService,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
    private readonly links: Links,
  ) {}

  /** Resolves every leaf against the catalog and prices the assembly; builds and charges nothing. Another user's
   * draft is reported as unknown to `viewerId`, exactly like a missing ct_id, so its existence does not leak. */
  async plan(request: AssemblyRequest, viewerId?: number): Promise<Plan> {
    const componentRefs: Array<{ path: string; ctId: string }> = request.contextual.map((c) => ({ path: c.path, ctId: c.ctId }));
    const clusterRefs: Array<{ path: string; ctId: string }> = [];
    const mint: Plan['mint'] = [];
    let newClusters = 0;
    const stack: ClusterSpec[] = [request.root];
    while (stack.length) {
      const cluster = stack.pop()!;
      if (cluster.ctId) clusterRefs.push({ path: cluster.path, ctId: cluster.ctId });
      else if (cluster.path !== 'data') {
        newClusters++;
        mint.push({ path: cluster.path, label: cluster.label, dataType: 'Cluster' });
      }
      for (const c of cluster.components) {
        if (c.kind === 'reuse') componentRefs.push({ path: c.path, ctId: c.ctId });
        else mint.push({ path: c.path, label: c.label, dataType: c.dataType });
      }
      stack.push(...[...cluster.clusters].reverse());
    }
    const [components, clusters] = await Promise.all([
      this.catalog.findComponentsByCtIds([...new Set(componentRefs.map((r) => r.ctId))]),
      this.catalog.findClustersByCtIds([...new Set(clusterRefs.map((r) => r.ctId))]),
    ]);
    const problems: ProblemView[] = [];
    const reuse: ReuseView[] = [];
    const check = (
      ref: { path: string; ctId: string },
      found: { label: string; status: CatalogStatus; successorCtId: string | null; ownerId: number | null } | undefined,
      type: string,
    ) => {
      const { path, ctId } = ref;
      if (!found || (found.status === 'draft' && viewerId !== undefined && found.ownerId !== viewerId))
        problems.push({ path, ctId, problem: 'unknown', message: `No published component or cluster has ct_id ${ctId}.`, successor: null });
      else if (found.status === 'draft')
        problems.push({ path, ctId, problem: 'unpublished', message: `${ctId} is a draft; only published entries can be reused.`, successor: null });
      else if (found.status === 'retired' && !request.allowRetired) {
        const successor = found.successorCtId;
        problems.push({
          path,
          ctId,
          problem: 'retired',
          successor,
          message: `${ctId} (${found.label}) is retired${successor ? `; its successor is ${successor}` : ''}.`,
        });
      } else reuse.push({ path, ctId, label: found.label, type });
    };
    for (const ref of componentRefs) {
      const found = components.get(ref.ctId);
      check(ref, found, found?.dataType ?? 'Component');
    }
    for (const ref of clusterRefs) check(ref, clusters.get(ref.ctId), 'Cluster');
    const newComponents = mint.length - newClusters;
    const mintCredits = newClusters * PRICES.cluster + newComponents * PRICES.component;
    return {
      request,
      estimateId: estimateId(request),
      mode: newComponents > 0 ? 'mixed' : 'reuse',
      reuse,
      mint,
      problems,
      modelCredits: PRICES.model,
      mintCredits,
      totalCredits: PRICES.model + mintCredits,
    };
  }

  async estimate(caller: Caller, request: AssemblyRequest): Promise<EstimateView> {
    const plan = await this.plan(request, caller.user.id);
    const wallet = await this.ledger.wallet(caller.user.id);
    return estimateView(plan, wallet.balanceCredits, caller.via === 'key' ? caller.key : null);
  }

  /** Everything assemble refuses before money moves: scope, a stale estimate, unknown/unpublished (400) and
   * retired (409) references. */
  async admit(caller: Caller, request: AssemblyRequest): Promise<Plan> {
    const plan = await this.plan(request, caller.user.id);
    const key = caller.via === 'key' ? caller.key : null;
    if (key && !key.scopes.includes('spend')) throw keyScope('spend', key.scopes);
    if (plan.request.estimateId && plan.request.estimateId !== plan.estimateId) {
      throw conflict('stale_estimate', 'The title or tree changed since the estimate; estimate again.', {
        estimate_id: plan.request.estimateId,
        current_estimate_id: plan.estimateId,
      });
    }
    const blocking = plan.problems.filter((p) => p.problem !== 'retired');
    if (blocking.length) {
      throw new DomainError(400, 'invalid_references', `Some references cannot be reused: ${blocking.map((p) => p.message).join(' ')}`, {
        problems: blocking.map(renderProblem),
      });
    }
    const retired = plan.problems.filter((p) => p.problem === 'retired');
    if (retired.length) {
      throw conflict('retired_component', `${retired.map((p) => p.message).join(' ')} Send allow_retired: true to use it anyway.`, {
        problems: retired.map(renderProblem),
      });
    }
    return plan;
  }

  /** Reuse path: charge, build in one transaction, refund (its own ledger row) if the build fails. */
  async assembleReuse(caller: Caller, plan: Plan): Promise<{ model: BuiltModel; balanceCredits: number }> {
    const charge = await this.ledger.charge({
      userId: caller.user.id,
      amount: plan.totalCredits,
      reason: `assemble: ${plan.request.title}`,
      apiKeyId: caller.key?.id ?? null,
    });
    try {
      const model = await this.db.transaction((manager) => this.build(manager, plan.request, caller.user.id, { publish: plan.request.publish }));
      return { model, balanceCredits: charge.balanceCredits };
    } catch (error) {
      if (charge.ledgerEntryId) await this.ledger.refund(charge.ledgerEntryId, `refund: build failed for ${plan.request.title}`);
      throw buildFailed(error);
    }
  }

  /** Mixed path: the whole amount is checked (not charged) against the key and the wallet, then the job and its
   * queue message are written in one transaction. */
  async enqueueMixed(caller: Caller, plan: Plan): Promise<AssemblyJobView> {
    await this.ledger.assertCanPay(caller, plan.totalCredits);
    const { job, dataSourceCtId } = await this.db.transaction(async (manager) => {
      const json = JSON.stringify(plan.request);
      const source = await manager.save(
        manager.create(DataSourceRecord, {
          ctId: createId(),
          userId: caller.user.id,
          filename: 'assembly-request.json',
          contentType: 'application/json',
          sizeBytes: Buffer.byteLength(json),
          content: Buffer.from(json),
          createdAt: this.clock.now(),
        }),
      );
      const queued = await this.jobs.enqueue(manager, {
        kind: 'assemble',
        userId: caller.user.id,
        apiKeyId: caller.key?.id ?? null,
        request: assemblyJobRequest(plan.request, plan.totalCredits),
        dataSourceCtId: source.ctId,
      });
      return { job: queued, dataSourceCtId: source.ctId };
    });
    const wallet = await this.ledger.wallet(caller.user.id);
    return {
      mode: 'mixed',
      jobCtId: job.ctId,
      jobUrl: this.links.job(job.ctId),
      taskId: job.taskId,
      dataSourceCtId,
      status: job.status,
      estimatedCostCredits: plan.totalCredits,
      balanceCredits: wallet.balanceCredits,
      job,
    };
  }

  /** Creates the model bottom-up. With `mintKeyPrefix`, every row is minted idempotently (a retried pipeline
   * step finds what it made before). New components are minted as drafts unless `publish` says otherwise. */
  async build(
    manager: EntityManager,
    request: AssemblyRequest,
    ownerId: number,
    options: { publish: boolean; mintKeyPrefix?: string },
  ): Promise<BuiltModel> {
    const status: CatalogStatus = options.publish ? 'published' : 'draft';
    const key = (path: string) => (options.mintKeyPrefix ? `${options.mintKeyPrefix}:${path}` : undefined);
    const reusedComponents = await this.idsByCtId(manager, 'components', collectCtIds(request.root, 'component'));
    const reusedClusters = await this.idsByCtId(manager, 'clusters', collectCtIds(request.root, 'cluster'));
    const buildCluster = async (spec: ClusterSpec): Promise<number> => {
      if (spec.ctId) return reusedClusters.get(spec.ctId)!;
      const children: Array<{ componentId: number } | { clusterId: number }> = [];
      for (const c of spec.components) {
        if (c.kind === 'reuse') children.push({ componentId: reusedComponents.get(c.ctId)! });
        else {
          const made = await this.catalog.createComponent(manager, {
            label: c.label,
            dataType: c.dataType,
            description: c.description,
            units: c.units,
            status,
            ownerId,
            mintKey: key(c.path),
          });
          children.push({ componentId: made.id });
        }
      }
      for (const child of spec.clusters) children.push({ clusterId: await buildCluster(child) });
      const made = await this.catalog.createCluster(manager, {
        label: spec.label,
        description: spec.description,
        status,
        ownerId,
        children,
        mintKey: key(spec.path),
      });
      return made.id;
    };
    const rootClusterId = await buildCluster(request.root);
    const contextual = Object.fromEntries(request.contextual.map((c) => [c.name, { ct_id: c.ctId }]));
    const model = await this.catalog.createDataModel(manager, {
      title: request.title,
      description: request.description,
      rootClusterId,
      contextual,
      published: options.publish,
      ownerId,
      mintKey: key('model'),
    });
    return { dmCtId: model.ctId, published: options.publish };
  }

  private async idsByCtId(manager: EntityManager, table: 'components' | 'clusters', ctIds: string[]): Promise<Map<string, number>> {
    if (!ctIds.length) return new Map();
    const found = await rows<{ id: string; ct_id: string }>(manager, `SELECT id, ct_id FROM ${table} WHERE ct_id = ANY($1)`, [ctIds]);
    return new Map(found.map((r) => [r.ct_id, Number(r.id)]));
  }
}

function collectCtIds(root: ClusterSpec, kind: 'component' | 'cluster'): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    if (kind === 'cluster' && c.ctId) out.push(c.ctId);
    if (kind === 'component') for (const comp of c.components) if (comp.kind === 'reuse') out.push(comp.ctId);
    stack.push(...c.clusters);
  }
  return out;
}
