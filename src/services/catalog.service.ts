import type { DataSource } from 'typeorm';
import type { Queryable, Tx } from '../db/transaction';
import type { DataModelDocument } from '../domain/model-tree';
import type { DataModel } from '../entities/data-model.entity';
import type { Links } from '../lib/links';
import type { ClusterQuery, ComponentQuery, ModelQuery } from '../parsers/catalog.parser';
import type {
  CatalogIndexView,
  ClusterView,
  ComponentView,
  ModelSummaryView,
  ModelView,
  PageView,
  ImportResult,
  LifecycleResult,
} from '../presenters/catalog.presenter';
import { CatalogLifecycle, type ImportedModel } from './catalog-lifecycle.service';
import { CatalogMinter, type Minted, type NewCluster, type NewComponent, type NewDataModel } from './catalog-mint.service';
import { CatalogReader, type ClusterRef, type ComponentRef, type Viewer } from './catalog-read.service';
import type { Clock } from './clock';

export type { ImportResult, Viewer };

/** The catalog of reusable components, clusters and data models, as the transports and the other services use
 * it. The work is done by role: reading (catalog-read), minting (catalog-mint) and the lifecycle of entries
 * (catalog-lifecycle); the SQL is in src/db/queries/catalog.sql.ts. */
export class CatalogService {
  private readonly reader: CatalogReader;
  private readonly minter: CatalogMinter;
  private readonly lifecycle: CatalogLifecycle;

  constructor(
    private readonly db: DataSource,
    clock: Clock,
    links: Links,
  ) {
    this.reader = new CatalogReader(db, links);
    this.minter = new CatalogMinter(clock);
    this.lifecycle = new CatalogLifecycle(db, clock, this.minter);
  }

  index(viewer: Viewer): Promise<CatalogIndexView> {
    return this.reader.index(viewer);
  }

  listComponents(query: ComponentQuery, viewer: Viewer): Promise<PageView<ComponentView>> {
    return this.reader.listComponents(query, viewer);
  }

  listStudioComponents(query: ComponentQuery, viewer: Viewer): Promise<PageView<ComponentView>> {
    return this.reader.listStudioComponents(query, viewer);
  }

  listClusters(query: ClusterQuery, viewer: Viewer): Promise<PageView<ClusterView>> {
    return this.reader.listClusters(query, viewer);
  }

  listModels(query: ModelQuery, viewer: Viewer): Promise<ModelSummaryView[]> {
    return this.reader.listModels(query, viewer);
  }

  modelDetail(dmCtId: string, viewer: Viewer): Promise<ModelView> {
    return this.reader.modelDetail(this.db, dmCtId, viewer);
  }

  /** The detail as the caller's transaction sees it (before it commits). */
  modelDetailIn(tx: Tx, dmCtId: string, viewer: Viewer): Promise<ModelView> {
    return this.reader.modelDetail(tx, dmCtId, viewer);
  }

  findComponentsByCtIds(ctIds: string[]): Promise<Map<string, ComponentRef>> {
    return this.reader.findComponentsByCtIds(ctIds);
  }

  findClustersByCtIds(ctIds: string[]): Promise<Map<string, ClusterRef>> {
    return this.reader.findClustersByCtIds(ctIds);
  }

  loadModelDocument(on: Queryable, dmCtId: string): Promise<DataModelDocument> {
    return this.reader.loadModelDocument(on, dmCtId);
  }

  visibleModelDocument(dmCtId: string, viewer: Viewer): Promise<DataModelDocument> {
    return this.reader.visibleModelDocument(dmCtId, viewer);
  }

  requireVisibleModel(dmCtId: string, viewer: Viewer): Promise<DataModel> {
    return this.reader.requireVisibleModel(dmCtId, viewer);
  }

  createComponent(manager: Tx, input: NewComponent): Promise<Minted> {
    return this.minter.createComponent(manager, input);
  }

  createCluster(manager: Tx, input: NewCluster): Promise<Minted> {
    return this.minter.createCluster(manager, input);
  }

  createDataModel(manager: Tx, input: NewDataModel): Promise<Minted> {
    return this.minter.createDataModel(manager, input);
  }

  publish(ctId: string): Promise<LifecycleResult> {
    return this.lifecycle.publish(ctId);
  }

  retire(ctId: string, successorCtId: string | null): Promise<LifecycleResult> {
    return this.lifecycle.retire(ctId, successorCtId);
  }

  publishModelTree(manager: Tx, dmCtId: string): Promise<void> {
    return this.lifecycle.publishModelTree(manager, dmCtId);
  }

  registerImported(imported: ImportedModel): Promise<ImportResult> {
    return this.lifecycle.registerImported(imported);
  }
}
