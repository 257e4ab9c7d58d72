import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { DataSourceRecord } from '../entities/data-source.entity';
import { conflict, DomainError, isDatabaseUnavailable } from '../lib/errors';
import type { Links } from '../lib/links';
import { creditsToUsd, PRICES, recordOutcome } from '../money';
import { assemblyJobRequest, type AssemblyRequest } from '../parsers/assembly.parser';
import { asStudioError } from '../lib/cpu-errors';
import type { CpuPool } from '../workers/pool';
import { assemblyShape, treeNodesUpTo, type AssemblyShape } from '../workers/assembly-shape';
import {
  estimateView,
  renderProblem,
  type AssemblyJobView,
  type EstimateView,
  type BuiltModelView,
  type Pricing,
  type ProblemView,
  type ReuseView,
} from '../presenters/assembly.presenter';
import type { ModelView } from '../presenters/catalog.presenter';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import type { JobsService } from './jobs.service';
import { ModelBuilder, reuseTree, type BuiltModel, type ReusedIds } from './model-builder';
import { prepared } from '../db/prepared';
import { insertReuseTree, reuseRefs, type ReuseRefRow } from '../db/queries/model-build.sql';
import { modelView } from '../presenters/catalog.presenter';
import { clusterTreeOf } from './catalog-tree';
import { transactionRetried } from '../db/transaction';
import type { LedgerService } from '../money';

/** The price table's home is src/money/prices.ts. */

/** Trees this large (nodes) are planned in the worker pool: below it, a pool round trip costs more than the walk. */
const PLAN_IN_POOL_NODES = 1000;

export interface Plan extends Pricing {
  request: AssemblyRequest;
  /** The row ids of the references found, for the reuse path's build. */
  reused: ReusedIds;
}

/** A failure of the build itself (not of the request): the reuse path releases its hold. */
const buildFailed = (cause: unknown) => new DomainError(500, 'build_failed', 'The model could not be built; nothing was charged.', {}, { cause });

/** The build outlived its hold (the sweep released it): nothing was charged or kept; a retry builds again. */
const holdExpired = (cause: unknown) =>
  new DomainError(503, 'hold_expired', 'The model took longer to build than its hold lasts; nothing was charged. Try again.', {}, { cause });

export class AssemblyService {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerService,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
    private readonly links: Links,
    /** Plans large trees off the event loop (none: every plan in place). */
    private readonly cpu?: CpuPool,
  ) {
    this.ledger.requests.onRelease((manager, tokens) => ModelBuilder.undoHeldBuilds(manager, tokens));
  }

  /** Resolves every leaf against the catalog and prices the assembly; builds and charges nothing. Another user's
   * draft is reported as unknown to `viewerId`, exactly like a missing ct_id, so its existence does not leak. A
   * tree of PLAN_IN_POOL_NODES or more is walked and hashed in the worker pool, off the event loop. */
  async plan(request: AssemblyRequest, viewerId?: number): Promise<Plan> {
    const shape =
      this.cpu && treeNodesUpTo(request.root, PLAN_IN_POOL_NODES) >= PLAN_IN_POOL_NODES
        ? await this.cpu.run<AssemblyRequest, AssemblyShape>('assembly', 'shape', request).catch((error: unknown) => {
            throw asStudioError(error);
          })
        : assemblyShape(request);
    const { componentRefs, clusterRefs, mint, newClusters } = shape;
    const components = new Map<string, ReuseRefRow>();
    const clusters = new Map<string, ReuseRefRow>();
    const unique = (refs: Array<{ ctId: string }>) => [...new Set(refs.map((r) => r.ctId))];
    if (componentRefs.length || clusterRefs.length) {
      for (const row of await prepared(this.db, reuseRefs(unique(componentRefs), unique(clusterRefs))))
        (row.kind === 'component' ? components : clusters).set(row.ct_id, row);
    }
    const problems: ProblemView[] = [];
    const reuse: ReuseView[] = [];
    const check = (ref: { path: string; ctId: string }, found: ReuseRefRow | undefined, type: string) => {
      const { path, ctId } = ref;
      if (!found || (found.status === 'draft' && viewerId !== undefined && Number(found.owner_id) !== viewerId))
        problems.push({ path, ctId, problem: 'unknown', message: `No published component or cluster has ct_id ${ctId}.`, successor: null });
      else if (found.status === 'draft')
        problems.push({ path, ctId, problem: 'unpublished', message: `${ctId} is a draft; only published entries can be reused.`, successor: null });
      else if (found.status === 'retired' && !request.allowRetired) {
        const successor = found.successor_ct_id;
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
      check(ref, found, found?.data_type ?? 'Component');
    }
    for (const ref of clusterRefs) check(ref, clusters.get(ref.ctId), 'Cluster');
    const newComponents = mint.length - newClusters;
    const mintCredits = newClusters * PRICES.cluster + newComponents * PRICES.component;
    const ids = (found: Map<string, ReuseRefRow>) => new Map([...found.values()].map((r) => [r.ct_id, Number(r.id)]));
    return {
      request,
      reused: { components: ids(components), clusters: ids(clusters) },
      estimateId: shape.estimateId,
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
    const wallet = await this.ledger.wallet(caller.user.id, this.db.manager);
    const key = caller.via === 'key' ? await this.ledger.currentSpend(caller.key) : null;
    // Open holds are promised to admitted jobs: the estimate judges the available balance.
    return estimateView(plan, wallet.balanceCredits - wallet.heldCredits, key);
  }

  /** Everything assemble refuses before money moves: scope, a stale estimate, unknown/unpublished (400) and
   * retired (409) references. */
  async admit(caller: Caller, request: AssemblyRequest): Promise<Plan> {
    const plan = await this.plan(request, caller.user.id);
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

  /** Reuse path, off the wallet's lock: hold the whole price (group-committed with the wallet's other holds;
   * 402/403 before any work), build in one statement of its own (insertReuseTree, with the ids `plan` resolved;
   * concurrent builds of one wallet run in parallel), then capture (group-committed). The capture's transaction records the Idempotency-Key's outcome, so a retry
   * replays the charged answer. The build is minted under the hold's mint-key prefix and the release of a hold
   * removes what was built under it (ModelBuilder.undoHeldBuilds, registered in the constructor): a failed build
   * releases the hold (nothing charged), a refused capture releases it with the model, and a process that died
   * between the build's commit and the capture leaves a hold the sweep releases, model and all. The answer (the
   * model as the catalog shows it) is what the build's statement returned, the balance is the capture's. */
  async assembleReuse(caller: Caller, plan: Plan): Promise<BuiltModelView> {
    const { title } = plan.request;
    const reason = `assemble: ${title}`;
    const userId = caller.user.id;
    const hold = await this.ledger.requests.hold({ userId, amount: plan.totalCredits, reason, apiKeyId: caller.key?.id ?? null });
    let built: { model: BuiltModel; detail: ModelView };
    try {
      // One statement writes the whole tree (atomic on its own) and returns it: the answer reads nothing after it.
      const mintKeyPrefix = hold.holdId ? ModelBuilder.heldPrefix(hold.holdId) : null;
      const tree = reuseTree(plan.request, plan.reused, userId, { publish: plan.request.publish, mintKeyPrefix, now: this.clock.now() });
      const [row] = await prepared(this.db, insertReuseTree(tree));
      const rootClusterId = Number(row.root_cluster_id);
      const detail = modelView(row, clusterTreeOf(row.tree, rootClusterId), this.links);
      built = { model: { dmCtId: row.ct_id, published: row.published }, detail };
    } catch (error) {
      await this.ledger.requests.release(hold, `build failed for ${title}`).catch(() => false);
      if (isDatabaseUnavailable(error)) throw error;
      throw buildFailed(error);
    }
    const { model, detail } = built;
    const view = (balanceCredits: number): BuiltModelView => ({
      mode: 'reuse',
      model: detail,
      published: model.published,
      generated: false,
      modelUrl: this.links.model(model.dmCtId),
      packageUrl: null,
      finalizeError: null,
      estimatedCostCredits: plan.totalCredits,
      balanceCredits,
    });
    const resource = { type: 'model', id: model.dmCtId };
    try {
      const paid = await this.ledger.requests.capture(hold, plan.totalCredits, reason, (c) => ({
        charged: c.capturedCredits,
        ledgerEntryId: c.ledgerEntryId,
        resource,
        result: view(c.balanceCredits),
      }));
      return view(paid.balanceCredits);
    } catch (error) {
      // Not charged. A hold the sweep released (the build outlived REQUEST_HOLD_TTL_SECONDS) may have been
      // released before the build committed: remove the model here, and ask for a retry.
      if (error instanceof DomainError && error.code === 'hold_released' && hold.holdId) {
        const token = hold.holdId;
        await transactionRetried(this.db, (m) => ModelBuilder.undoHeldBuilds(m, [token]));
        throw holdExpired(error);
      }
      // Any other refusal (a key revoked since the hold): the release takes the model with it.
      await this.ledger.requests.release(hold, `assemble: ${title} could not be charged`).catch(() => false);
      throw error;
    }
  }

  /** Mixed path: the job, its queue message and a hold on the whole amount (key and wallet) in one transaction,
   * so concurrent admissions cannot promise the same credits twice; the run captures the hold. */
  async enqueueMixed(caller: Caller, plan: Plan): Promise<AssemblyJobView> {
    return transactionRetried(this.db, async (manager) => {
      const json = JSON.stringify(plan.request);
      const source = await manager.save(
        manager.create(DataSourceRecord, {
          ctId: newId(),
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
      const apiKeyId = caller.key?.id ?? null;
      const held = await this.ledger.hold(
        { userId: caller.user.id, amount: plan.totalCredits, reason: `assemble: ${plan.request.title}`, apiKeyId, jobId: queued.id },
        manager,
      );
      const view: AssemblyJobView = {
        mode: 'mixed',
        jobCtId: queued.ctId,
        jobUrl: this.links.job(queued.ctId),
        taskId: queued.taskId,
        dataSourceCtId: source.ctId,
        status: queued.status,
        newComponents: plan.mint.filter((m) => m.dataType !== 'Cluster').length,
        estimatedCost: creditsToUsd(plan.totalCredits),
        estimatedCostCredits: plan.totalCredits,
        balanceCredits: held.balanceCredits,
        job: queued,
      };
      await recordOutcome(manager, { charged: plan.totalCredits, ledgerEntryId: null, resource: { type: 'job', id: queued.ctId }, result: view });
      return view;
    });
  }
}
