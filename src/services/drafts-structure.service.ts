import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/drafts.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { DomainError } from '../lib/errors';
import type { PageRequest } from '../parsers/catalog.parser';
import type { ClusterFields, ModelFields, NewClusterDraft, NewModelDraft } from '../parsers/drafts.parser';
import type { PageView } from '../presenters/catalog.presenter';
import {
  clusterDraftView,
  modelDraftView,
  type ClusterDraftView,
  type ClusterMintView,
  type ModelDraftView,
  type ModelMintView,
} from '../presenters/drafts.presenter';
import { PRICES } from '../money';
import type { Caller } from './auth.service';
import type { CatalogService } from './catalog.service';
import type { ClusterChildRef } from './catalog-mint.service';
import { assertTreeWithinBound, clusterTreeSize, expandedSizes } from './catalog-tree';
import type { Clock } from './clock';
import { draftNotFound, immutable } from './drafts-components.service';
import { ownProjectId, pageOf, setPredObjs } from './drafts-semantics.service';
import { recordOutcome, replayOr, unpaidTreePrice, type LedgerService } from '../money';
import { unpaidTreeMarkedPaid } from '../db/queries/ledger-unpaid-drafts.sql';

/** Clusters and models of the drafts API: built from the caller's components and clusters (or published ones),
 * read and edited while drafts; publishing a model publishes its tree bottom-up, as the assembly pipeline does.
 * Creating one is a charge at the assembly's prices (a new cluster 100, a model 500: assembly's "model with its root
 * cluster", the root here being a cluster that already exists), scope `spend` for a key, through the ledger in the
 * transaction that inserts it, so a refused charge creates nothing. Edits charge nothing; publishing charges the
 * tree's drafts that no door charged for (migration 0026's `paid`). */

const offset = (page: PageRequest) => (page.page - 1) * page.pageSize;

export class DraftStructureService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly catalog: Pick<CatalogService, 'createCluster' | 'createDataModel' | 'publishModelTree'>,
    private readonly ledger: LedgerService,
  ) {}

  /** Charges `amount` in the caller's transaction; a key needs `spend` (403 key_scope before anything is read). */
  private charge(manager: EntityManager, caller: Caller, amount: number, reason: string) {
    return this.ledger.charge({ userId: caller.user.id, amount, reason, apiKeyId: caller.key?.id ?? null }, manager);
  }

  /** Every child must be one of the caller's entries or a published one; a type field must name that type. */
  private async children(manager: EntityManager, userId: number, input: NewClusterDraft): Promise<ClusterChildRef[]> {
    const want = (kind: 'component' | 'cluster') => input.children.filter((c) => c.kind === kind).map((c) => c.ctId);
    const [components, clusters] = await Promise.all([
      query(manager, q.usableChildren(userId, 'components', want('component'))),
      query(manager, q.usableChildren(userId, 'clusters', want('cluster'))),
    ]);
    const componentsBy = new Map(components.map((r) => [r.ct_id, r]));
    const clustersBy = new Map(clusters.map((r) => [r.ct_id, r]));
    return input.children.map((child) => {
      if (child.kind === 'cluster') {
        const found = clustersBy.get(child.ctId);
        if (!found) throw unknownChild('clusters', child.ctId, 'cluster');
        return { clusterId: Number(found.id) };
      }
      const found = componentsBy.get(child.ctId);
      const field = child.dataType?.toLowerCase() ?? 'components';
      if (!found) throw unknownChild(field, child.ctId, 'component');
      if (child.dataType !== null && found.data_type !== child.dataType) {
        throw new DomainError(400, 'invalid_request', `${child.ctId} is an ${found.data_type}, not an ${child.dataType}.`, {
          details: { [field]: [`${child.ctId} is an ${found.data_type}.`] },
        });
      }
      return { componentId: Number(found.id) };
    });
  }

  /** Charges a new cluster's price and inserts it, in one transaction: 402 (or the key's 403) creates nothing. */
  async createCluster(caller: Caller, input: NewClusterDraft): Promise<ClusterMintView> {
    const userId = caller.user.id;
    const price = PRICES.cluster;
    return replayOr(() =>
      transactionRetried(this.db, async (manager) => {
        const projectId = await ownProjectId(manager, userId, input.projectCtId);
        const children = await this.children(manager, userId, input);
        const childClusters = children.flatMap((c) => ('clusterId' in c ? [c.clusterId] : []));
        const size = await clusterTreeSize(manager, children.length - childClusters.length, childClusters);
        assertTreeWithinBound(size, `The cluster ${input.label}`, 'clusters');
        const charge = await this.charge(manager, caller, price, `draft cluster: ${input.label}`);
        const minted = await this.catalog.createCluster(manager, {
          label: input.label,
          description: input.description,
          status: 'draft',
          ownerId: userId,
          projectId,
          children,
          paid: true,
        });
        if (input.predObjIds?.length) await setPredObjs(manager, 'cluster_pred_objs', minted.id, userId, input.predObjIds);
        const cluster = await this.readCluster(manager, userId, minted.ctId);
        const result = { cluster, estimatedCostCredits: price, balanceCredits: charge.balanceCredits };
        const resource = { type: 'cluster', id: minted.ctId };
        await recordOutcome(manager, { charged: price, ledgerEntryId: charge.ledgerEntryId, resource, result });
        return result;
      }),
    );
  }

  getCluster(userId: number, ctId: string): Promise<ClusterDraftView> {
    return this.readCluster(this.db.manager, userId, ctId);
  }

  listClusters(userId: number, page: PageRequest): Promise<PageView<ClusterDraftView>> {
    return pageOf(this.db, q.ownClusters(userId, page.pageSize, offset(page)), page, clusterDraftView);
  }

  async updateCluster(userId: number, ctId: string, fields: ClusterFields): Promise<ClusterDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const row = await queryOne(manager, q.clusterDraft(userId, ctId, true));
      if (!row) throw draftNotFound('cluster', ctId);
      if (row.status !== 'draft') throw immutable(ctId, row.status);
      if (!row.owned) throw draftNotFound('cluster', ctId);
      const columns: Record<string, unknown> = {};
      if (fields.label !== undefined) columns.label = fields.label;
      if (fields.description !== undefined) columns.description = fields.description;
      await queryOne(manager, q.updateEntry('clusters', Number(row.id), columns, this.clock.now()));
      if (fields.predObjIds !== undefined) await setPredObjs(manager, 'cluster_pred_objs', Number(row.id), userId, fields.predObjIds);
      return this.readCluster(manager, userId, ctId);
    });
  }

  /** A model from a root cluster of the caller's (or a published one) and its Dublin Core fields: the model price
   * alone, as the root cluster already exists (and was charged when it was created). */
  async createModel(caller: Caller, input: NewModelDraft): Promise<ModelMintView> {
    const userId = caller.user.id;
    const price = PRICES.model;
    return replayOr(() =>
      transactionRetried(this.db, async (manager) => {
        const projectId = await ownProjectId(manager, userId, input.projectCtId);
        const named = input.rootCluster;
        const rootCtId = typeof named === 'number' ? (await queryOne(manager, q.clusterCtId(named)))?.ct_id : named;
        const [root] = rootCtId ? await query(manager, q.usableChildren(userId, 'clusters', [rootCtId])) : [];
        if (!root) throw unknownChild('data', String(named), 'cluster');
        const size = (await expandedSizes(manager, [Number(root.id)])).get(Number(root.id)) ?? 1;
        assertTreeWithinBound(size, `The tree of cluster ${root.ct_id}`, 'data');
        const charge = await this.charge(manager, caller, price, `draft model: ${input.title}`);
        const minted = await this.catalog.createDataModel(manager, {
          title: input.title,
          description: input.description,
          rootClusterId: Number(root.id),
          published: false,
          ownerId: userId,
          projectId,
          paid: true,
        });
        if (input.dublinCore) {
          await queryOne(manager, q.updateEntry('data_models', minted.id, { dublin_core: JSON.stringify(input.dublinCore) }, this.clock.now()));
        }
        const model = await this.readModel(manager, userId, minted.ctId);
        const result = { model, estimatedCostCredits: price, balanceCredits: charge.balanceCredits };
        const resource = { type: 'model', id: minted.ctId };
        await recordOutcome(manager, { charged: price, ledgerEntryId: charge.ledgerEntryId, resource, result });
        return result;
      }),
    );
  }

  getModel(userId: number, ctId: string): Promise<ModelDraftView> {
    return this.readModel(this.db.manager, userId, ctId);
  }

  listModels(userId: number, page: PageRequest): Promise<PageView<ModelDraftView>> {
    return pageOf(this.db, q.ownModels(userId, page.pageSize, offset(page)), page, modelDraftView);
  }

  async updateModel(userId: number, ctId: string, fields: ModelFields): Promise<ModelDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const row = await this.ownDraftModel(manager, userId, ctId);
      const columns: Record<string, unknown> = {};
      if (fields.title !== undefined) columns.title = fields.title;
      if (fields.description !== undefined) columns.description = fields.description;
      if (fields.dublinCore !== undefined) columns.dublin_core = JSON.stringify({ ...row.dublin_core, ...fields.dublinCore });
      await queryOne(manager, q.updateEntry('data_models', Number(row.id), columns, this.clock.now()));
      return this.readModel(manager, userId, ctId);
    });
  }

  /** Publishes the model's draft components, then clusters, then the model, in one transaction, charging first
   * what no door charged for (its unpaid drafts, by the price table): a 402 (or the key's 403) changes nothing. A
   * tree minted by charging doors publishes for 0. With an Idempotency-Key the outcome commits with the charge. */
  async publishModel(caller: Caller, ctId: string): Promise<ModelDraftView> {
    const userId = caller.user.id;
    return replayOr(() =>
      transactionRetried(this.db, async (manager) => {
        const row = await this.ownDraftModel(manager, userId, ctId);
        const unpaid = await queryOne(manager, unpaidTreeMarkedPaid(Number(row.id), userId));
        const price = unpaid ? unpaidTreePrice({ ...unpaid, rootCluster: unpaid.root_cluster }) : 0;
        const charge = price > 0 ? await this.charge(manager, caller, price, `publish: ${row.title}`) : null;
        await this.catalog.publishModelTree(manager, ctId);
        const model = await this.readModel(manager, userId, ctId);
        await recordOutcome(manager, {
          charged: price,
          ledgerEntryId: charge?.ledgerEntryId ?? null,
          resource: { type: 'model', id: ctId },
          result: model,
        });
        return model;
      }),
    );
  }

  private async ownDraftModel(manager: EntityManager, userId: number, ctId: string) {
    const row = await queryOne(manager, q.modelDraft(userId, ctId, true));
    if (!row) throw draftNotFound('data model', ctId);
    if (row.published) throw immutable(ctId, 'published');
    if (!row.owned) throw draftNotFound('data model', ctId);
    return row;
  }

  private async readCluster(manager: EntityManager, userId: number, ctId: string): Promise<ClusterDraftView> {
    const row = await queryOne(manager, q.clusterDraft(userId, ctId));
    if (!row) throw draftNotFound('cluster', ctId);
    return clusterDraftView(row);
  }

  private async readModel(manager: EntityManager, userId: number, ctId: string): Promise<ModelDraftView> {
    const row = await queryOne(manager, q.modelDraft(userId, ctId));
    if (!row) throw draftNotFound('data model', ctId);
    return modelDraftView(row);
  }
}

const unknownChild = (field: string, ctId: string, kind: string) =>
  new DomainError(400, 'invalid_request', `No ${kind} of yours and no published ${kind} has ct_id ${ctId}.`, {
    details: { [field]: [`Unknown ${kind} ${ctId}.`] },
  });
