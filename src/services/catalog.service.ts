import { In, type DataSource } from 'typeorm';
import {
  entryStatus,
  kindOf,
  lockModel,
  modelDocument,
  publishComponent,
  publishModel,
  publishTreeClusters,
  publishTreeComponents,
  retireEntry,
  visibleClusters,
  visibleComponents,
  visibleModelDetail,
  visibleModelId,
  visibleModels,
  visibleProjects,
  type CatalogKind,
  type CountRow,
} from '../db/queries/catalog.sql';
import { studioComponents } from '../db/queries/studio-components.sql';
import { query, queryOne, type Sql } from '../db/sql';
import { transactionRetried, type Queryable, type Tx } from '../db/transaction';
import type { ClusterNode, DataModelDocument, DataType, TreeNode } from '../domain/model-tree';
import type { CatalogStatus } from '../entities/catalog-entry';
import { Cluster } from '../entities/cluster.entity';
import { Component } from '../entities/component.entity';
import { DataModel } from '../entities/data-model.entity';
import { badRequest, conflict, DomainError, notFound } from '../lib/errors';
import type { Links } from '../lib/links';
import { invalid, type ClusterQuery, type ComponentQuery, type ModelQuery } from '../parsers/catalog.parser';
import {
  catalogIndexView,
  clusterView,
  componentView,
  modelSummaryView,
  modelView,
  type CatalogIndexView,
  type ClusterView,
  type ComponentView,
  type ImportResult,
  type LifecycleResult,
  type ModelSummaryView,
  type ModelView,
  type PageView,
} from '../presenters/catalog.presenter';
import { CatalogMinter, type ClusterChildRef, type Minted, type NewCluster, type NewComponent, type NewDataModel } from './catalog-mint.service';
import { loadClusterTree } from './catalog-tree';
import type { Clock } from './clock';

interface ComponentRef {
  ctId: string;
  label: string;
  dataType: DataType;
  status: CatalogStatus;
  successorCtId: string | null;
  ownerId: number | null;
  description: string | null;
  units: string | null;
}

interface ClusterRef {
  ctId: string;
  label: string;
  status: CatalogStatus;
  successorCtId: string | null;
  ownerId: number | null;
}

/** Who is reading: null without credentials (published entries of public projects only). */
export interface Viewer {
  userId: number | null;
}

/** A model read from a real package: its original ct_ids are kept. */
interface ImportedModel {
  dm: { ctId: string; title: string; description: string | null };
  root: ClusterNode;
}

/** The catalog of reusable components, clusters and data models: what a viewer may list and see (anyone: published
 * entries of public projects; a signed-in viewer also their own projects and drafts), reuse references and model
 * documents for the generators, and the life of entries (publishing a model with its whole tree, retiring with a
 * successor, registering real packages as published library entries). Minting, idempotent by mint key or ct_id,
 * is catalog-mint's; the SQL is in src/db/queries/catalog.sql.ts. */
export class CatalogService {
  private readonly minter: CatalogMinter;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly links: Links,
  ) {
    this.minter = new CatalogMinter(clock);
  }

  /** One query for many reuse references. */
  async findComponentsByCtIds(ctIds: string[]): Promise<Map<string, ComponentRef>> {
    const found = await this.db.manager.findBy(Component, { ctId: In([...new Set(ctIds)]) });
    return new Map(
      found.map((c) => [
        c.ctId,
        {
          ctId: c.ctId,
          label: c.label,
          dataType: c.dataType,
          status: c.status,
          successorCtId: c.successorCtId,
          ownerId: c.ownerId,
          description: c.description,
          units: c.units,
        },
      ]),
    );
  }

  async findClustersByCtIds(ctIds: string[]): Promise<Map<string, ClusterRef>> {
    const found = await this.db.manager.findBy(Cluster, { ctId: In([...new Set(ctIds)]) });
    return new Map(
      found.map((c) => [c.ctId, { ctId: c.ctId, label: c.label, status: c.status, successorCtId: c.successorCtId, ownerId: c.ownerId }]),
    );
  }

  /** The model as every generator sees it, built from the stored rows in two queries. */
  async loadModelDocument(on: Queryable, dmCtId: string): Promise<DataModelDocument> {
    const model = await queryOne(on, modelDocument(dmCtId));
    if (!model) throw notFound('Data model');
    const { language, ...dublinCore } = model.dublin_core ?? {};
    return {
      ctId: model.ct_id,
      title: model.title,
      description: model.description,
      language: language ?? 'en-US',
      ...(Object.keys(dublinCore).length ? { dublinCore } : {}),
      author: model.author || null,
      created: model.created_at,
      root: await loadClusterTree(on, Number(model.root_cluster_id)),
    };
  }

  /** 404 for a draft that is not the viewer's, so its ct_id does not leak. */
  modelDetail(dmCtId: string, viewer: Viewer): Promise<ModelView> {
    return this.readModelDetail(this.db, dmCtId, viewer);
  }

  /** The detail as the caller's transaction sees it (a charging one reads its answer before it commits). */
  modelDetailIn(tx: Tx, dmCtId: string, viewer: Viewer): Promise<ModelView> {
    return this.readModelDetail(tx, dmCtId, viewer);
  }

  private async readModelDetail(on: Queryable, dmCtId: string, viewer: Viewer): Promise<ModelView> {
    const row = await queryOne(on, visibleModelDetail(dmCtId, viewer.userId));
    if (!row) throw notFound('Data model');
    return modelView(row, await loadClusterTree(on, Number(row.root_cluster_id)), this.links);
  }

  /** The viewer's document of a model, with the same visibility rule as its detail. */
  async visibleModelDocument(dmCtId: string, viewer: Viewer): Promise<DataModelDocument> {
    await this.requireVisibleModel(dmCtId, viewer);
    return this.loadModelDocument(this.db, dmCtId);
  }

  async requireVisibleModel(dmCtId: string, viewer: Viewer): Promise<DataModel> {
    const visible = await queryOne(this.db, visibleModelId(dmCtId, viewer.userId));
    const model = visible && (await this.db.manager.findOneBy(DataModel, { id: Number(visible.id) }));
    if (!model) throw notFound('Data model');
    return model;
  }

  /** Newest first, at most MAX_MODELS_LISTED. */
  async listModels(modelQuery: ModelQuery, viewer: Viewer): Promise<ModelSummaryView[]> {
    return (await query(this.db, visibleModels(modelQuery, viewer.userId))).map((row) => modelSummaryView(row, this.links));
  }

  async listComponents(componentQuery: ComponentQuery, viewer: Viewer): Promise<PageView<ComponentView>> {
    return this.page(visibleComponents(componentQuery, viewer.userId), componentQuery, componentView);
  }

  /** The studio's pick list: components, clusters and Units on one page. */
  async listStudioComponents(componentQuery: ComponentQuery, viewer: Viewer): Promise<PageView<ComponentView>> {
    return this.page(studioComponents(componentQuery, viewer.userId), componentQuery, componentView);
  }

  async listClusters(clusterQuery: ClusterQuery, viewer: Viewer): Promise<PageView<ClusterView>> {
    return this.page(visibleClusters(clusterQuery, viewer.userId), clusterQuery, clusterView);
  }

  private async page<Row, View>(
    statements: { count: Sql<CountRow>; page: Sql<Row> },
    request: { page: number; pageSize: number },
    view: (row: Row) => View,
  ): Promise<PageView<View>> {
    const [total, found] = await Promise.all([queryOne(this.db, statements.count), query(this.db, statements.page)]);
    return { count: total!.n, page: request.page, pageSize: request.pageSize, results: found.map(view) };
  }

  /** What the viewer can see, per project: the library, the viewer's projects and any with visible entries. */
  async index(viewer: Viewer): Promise<CatalogIndexView> {
    return catalogIndexView(await query(this.db, visibleProjects(viewer.userId)));
  }

  /** Minting (catalog-mint), in the caller's transaction: the one door the builders and drafts mint through. */
  createComponent(tx: Tx, input: NewComponent): Promise<Minted> {
    return this.minter.createComponent(tx, input);
  }

  createCluster(tx: Tx, input: NewCluster): Promise<Minted> {
    return this.minter.createCluster(tx, input);
  }

  createDataModel(tx: Tx, input: NewDataModel): Promise<Minted> {
    return this.minter.createDataModel(tx, input);
  }

  /** Registers an imported model and its tree as published library entries, children first; entries whose
   * ct_id is already registered are kept as they are, so importing twice changes nothing. */
  async registerImported(imported: ImportedModel): Promise<ImportResult> {
    return transactionRetried(this.db, async (manager) => {
      const projectId = await this.minter.libraryProjectId(manager);
      const ids = new Map<string, ClusterChildRef>();
      const result: ImportResult = {
        dmCtId: imported.dm.ctId,
        title: imported.dm.title,
        dataModelCreated: false,
        components: { created: [], existing: [] },
        clusters: { created: [], existing: [] },
      };
      const register = async (node: TreeNode): Promise<ClusterChildRef> => {
        const key = `${node.kind}:${node.ctId}`;
        const known = ids.get(key);
        if (known) return known;
        let ref: ClusterChildRef;
        if (node.kind === 'component') {
          const minted = await this.minter.createComponent(manager, { ...node, ctId: node.ctId, status: 'published', ownerId: null, projectId });
          (minted.created ? result.components.created : result.components.existing).push(minted.ctId);
          ref = { componentId: minted.id };
        } else {
          const children: ClusterChildRef[] = [];
          for (const child of node.children) children.push(await register(child));
          const minted = await this.minter.createCluster(manager, {
            ...node,
            ctId: node.ctId,
            status: 'published',
            ownerId: null,
            projectId,
            children,
          });
          (minted.created ? result.clusters.created : result.clusters.existing).push(minted.ctId);
          ref = { clusterId: minted.id };
        }
        ids.set(key, ref);
        return ref;
      };
      const root = (await register(imported.root)) as { clusterId: number };
      const model = await this.minter.createDataModel(manager, {
        ctId: imported.dm.ctId,
        title: imported.dm.title,
        description: imported.dm.description,
        rootClusterId: root.clusterId,
        published: true,
        ownerId: null,
        projectId,
      });
      result.dataModelCreated = model.created;
      return result;
    });
  }

  /** Publishes a draft component, a cluster with its draft subtree, or a model with its whole tree. */
  async publish(ctId: string): Promise<LifecycleResult> {
    return transactionRetried(this.db, async (manager) => {
      const kind = await this.kindOf(manager, ctId);
      if (kind === 'data_model') {
        await this.publishModelTree(manager, ctId);
        return { kind, ctId, status: 'published', successorCtId: null };
      }
      const entry = await this.lockEntry(manager, kind, ctId);
      if (entry.status === 'retired') throw conflict('retired', `${ctId} is retired; retired entries are not published again.`, { ct_id: ctId });
      if (kind === 'cluster') await this.publishClusterTree(manager, entry.id);
      else await query(manager, publishComponent(entry.id, this.clock.now()));
      return { kind, ctId, status: 'published', successorCtId: null };
    });
  }

  /** Bottom-up: every draft component and cluster of the tree, then the model. Retired entries stay retired. */
  async publishModelTree(manager: Tx, dmCtId: string): Promise<void> {
    const model = await queryOne(manager, lockModel(dmCtId));
    if (!model) throw notFound('Data model');
    await this.publishClusterTree(manager, Number(model.root_cluster_id));
    await query(manager, publishModel(Number(model.id), this.clock.now()));
  }

  private async publishClusterTree(manager: Tx, rootClusterId: number): Promise<void> {
    const now = this.clock.now();
    await query(manager, publishTreeComponents(rootClusterId, now));
    await query(manager, publishTreeClusters(rootClusterId, now));
  }

  /** Retires a published component or cluster, optionally naming a published successor of the same kind. */
  async retire(ctId: string, successorCtId: string | null): Promise<LifecycleResult> {
    return transactionRetried(this.db, async (manager) => {
      const kind = await this.kindOf(manager, ctId);
      if (kind === 'data_model') throw badRequest('Data models are not retired; retire its components or clusters.');
      const table = kind === 'component' ? 'components' : 'clusters';
      const entry = await this.lockEntry(manager, kind, ctId);
      if (entry.status === 'draft') throw conflict('not_published', `${ctId} is a draft; only published entries are retired.`, { ct_id: ctId });
      if (successorCtId !== null) {
        if (successorCtId === ctId) throw invalid('successor', 'An entry cannot succeed itself.');
        const successor = await queryOne(manager, entryStatus(table, successorCtId));
        if (!successor) throw new DomainError(404, 'not_found', `Successor ${successorCtId} is not a ${kind}.`);
        if (successor.status !== 'published') {
          throw conflict('successor_not_published', `Successor ${successorCtId} is ${successor.status}; name a published ${kind}.`, {
            successor: successorCtId,
          });
        }
      }
      await query(manager, retireEntry(table, entry.id, successorCtId, this.clock.now()));
      return { kind, ctId, status: 'retired', successorCtId };
    });
  }

  private async lockEntry(manager: Tx, kind: 'component' | 'cluster', ctId: string): Promise<Component | Cluster> {
    return manager.findOneOrFail(kind === 'component' ? Component : Cluster, { where: { ctId }, lock: { mode: 'pessimistic_write' } });
  }

  private async kindOf(manager: Tx, ctId: string): Promise<CatalogKind> {
    const row = await queryOne(manager, kindOf(ctId));
    if (!row) throw new DomainError(404, 'not_found', `No component, cluster or data model has ct_id ${ctId}.`);
    return row.kind;
  }
}
