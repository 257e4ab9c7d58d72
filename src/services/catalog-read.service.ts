import { In, type DataSource } from 'typeorm';
import {
  modelDocument,
  type CountRow,
  visibleClusters,
  visibleComponents,
  visibleModelDetail,
  visibleModelId,
  visibleModels,
  visibleProjects,
} from '../db/queries/catalog.sql';
import { studioComponents } from '../db/queries/studio-components.sql';
import { query, queryOne, type Sql } from '../db/sql';
import type { Queryable } from '../db/transaction';
import type { DataModelDocument, DataType } from '../domain/model-tree';
import type { CatalogStatus } from '../entities/catalog-entry';
import { Cluster } from '../entities/cluster.entity';
import { Component } from '../entities/component.entity';
import { DataModel } from '../entities/data-model.entity';
import { notFound } from '../lib/errors';
import type { Links } from '../lib/links';
import type { ClusterQuery, ComponentQuery, ModelQuery } from '../parsers/catalog.parser';
import {
  catalogIndexView,
  clusterView,
  componentView,
  modelSummaryView,
  modelView,
  type CatalogIndexView,
  type ClusterView,
  type ComponentView,
  type ModelSummaryView,
  type ModelView,
  type PageView,
} from '../presenters/catalog.presenter';
import { loadClusterTree } from './catalog-tree';

/** Reading the catalog: reuse references, model documents for the generators, and what a viewer may list and
 * see (anyone: published entries of public projects; a signed-in viewer also their own projects and drafts). */

export interface ComponentRef {
  ctId: string;
  label: string;
  dataType: DataType;
  status: CatalogStatus;
  successorCtId: string | null;
  ownerId: number | null;
  description: string | null;
  units: string | null;
}

export interface ClusterRef {
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

export class CatalogReader {
  constructor(
    private readonly db: DataSource,
    private readonly links: Links,
  ) {}

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

  /** 404 for a draft that is not the viewer's, so its ct_id does not leak. In the caller's transaction when `on`
   * is one (a charging one reads its answer before it commits). */
  async modelDetail(on: Queryable, dmCtId: string, viewer: Viewer): Promise<ModelView> {
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
}
