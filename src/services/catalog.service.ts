import { createId } from '@paralleldrive/cuid2';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { one, rows } from '../db/sql';
import { DATA_TYPES, isDataType, type ClusterNode, type DataModelDocument, type DataType, type TreeNode } from '../domain/model-tree';
import { Cluster } from '../entities/cluster.entity';
import type { CatalogStatus } from '../entities/catalog-entry';
import { Component } from '../entities/component.entity';
import { DataModel } from '../entities/data-model.entity';
import { Project } from '../entities/project.entity';
import { badRequest, conflict, DomainError, notFound } from '../lib/errors';
import type { Clock } from './clock';

/** The catalog of reusable components, clusters and data models: minting (idempotent by mint key), the
 * tree of a model, visibility (drafts only for their owner), listing and the publish/retire lifecycle. */

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

/** Who is reading: drafts are visible only to their owner. */
export interface Viewer {
  userId: number;
}

export interface NewComponent {
  label: string;
  dataType: string;
  description?: string | null;
  units?: string | null;
  status: CatalogStatus;
  ownerId: number | null;
  mintKey?: string;
  /** Kept when importing a package; minted (CUID2) otherwise. */
  ctId?: string;
  projectId?: number;
}

export type ClusterChildRef = { componentId: number } | { clusterId: number };

export interface NewCluster {
  label: string;
  description?: string | null;
  status: CatalogStatus;
  ownerId: number | null;
  children: ClusterChildRef[];
  mintKey?: string;
  ctId?: string;
  projectId?: number;
}

export interface NewDataModel {
  title: string;
  description?: string | null;
  rootClusterId: number;
  contextual?: Record<string, unknown>;
  published: boolean;
  ownerId: number | null;
  mintKey?: string;
  ctId?: string;
  projectId?: number;
}

export interface Minted {
  id: number;
  ctId: string;
  /** False when the mint key (or the imported ct_id) was already there. */
  created: boolean;
}

export interface ModelDetail {
  ctId: string;
  title: string;
  description: string | null;
  projectName: string;
  contextual: Record<string, unknown>;
  published: boolean;
  generated: boolean;
  ownerId: number | null;
  created: Date;
  updated: Date;
  root: ClusterNode;
}

export interface ModelSummary {
  ctId: string;
  title: string;
  description: string | null;
  projectName: string;
  published: boolean;
  created: Date;
  updated: Date;
}

export interface ComponentListing {
  ctId: string;
  label: string;
  description: string | null;
  dataType: DataType;
  projectName: string;
  units: string | null;
  status: CatalogStatus;
  successorCtId: string | null;
}

export interface ClusterListing {
  ctId: string;
  label: string;
  description: string | null;
  projectName: string;
  status: CatalogStatus;
  successorCtId: string | null;
  childCount: number;
}

export interface Page<T> {
  count: number;
  page: number;
  pageSize: number;
  results: T[];
}

export interface ComponentQuery {
  type?: unknown;
  project?: unknown;
  search?: unknown;
  status?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

export interface CatalogIndex {
  dataTypes: readonly string[];
  counts: { components: number; clusters: number; dataModels: number };
  projects: Array<{ name: string; isLibrary: boolean; components: number; clusters: number; dataModels: number }>;
}

export type CatalogKind = 'component' | 'cluster' | 'data_model';

export interface LifecycleResult {
  kind: CatalogKind;
  ctId: string;
  status: CatalogStatus;
  successorCtId: string | null;
}

/** A model read from a real package: its original ct_ids are kept. */
export interface ImportedModel {
  dm: { ctId: string; title: string; description: string | null };
  root: ClusterNode;
}

export interface ImportResult {
  dmCtId: string;
  title: string;
  dataModelCreated: boolean;
  components: { created: string[]; existing: string[] };
  clusters: { created: string[]; existing: string[] };
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_MODELS_LISTED = 100;
const MAX_SEARCH_LENGTH = 200;

const invalid = (field: string, message: string) => badRequest(message, { details: { [field]: [message] } });

/** "" means none (contract 4.17.5), as does whitespace. */
function optionalText(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

function positiveInt(value: unknown, field: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw invalid(field, `${field} must be an integer from 1 to ${max}.`);
  return n;
}

function filterText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, `${field} must be given once, as text.`);
  const trimmed = value.trim();
  if (trimmed.length > MAX_SEARCH_LENGTH) throw invalid(field, `${field} must have at most ${MAX_SEARCH_LENGTH} characters.`);
  return trimmed === '' ? null : trimmed;
}

/** `XdCount` and `XdCountType` both name the reference-model type. */
export function parseDataType(value: unknown, field = 'type'): DataType | null {
  const text = filterText(value, field);
  if (text === null) return null;
  const name = text.endsWith('Type') ? text.slice(0, -4) : text;
  if (!isDataType(name)) throw invalid(field, `${field} must be one of ${DATA_TYPES.join(', ')}.`);
  return name;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export class CatalogService {
  private libraryId: Promise<number> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** The library project's id, read once: migration 0002 creates it and nothing removes it. */
  async libraryProjectId(manager: EntityManager = this.db.manager): Promise<number> {
    this.libraryId ??= manager.findOneByOrFail(Project, { isLibrary: true }).then(
      (project) => project.id,
      (error: unknown) => {
        this.libraryId = null;
        throw new Error('The library project is missing: migration 0002-catalog was not applied.', { cause: error });
      },
    );
    return this.libraryId;
  }

  /** One query for many reuse references. */
  async findComponentsByCtIds(ctIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, ComponentRef>> {
    const found = await manager.findBy(Component, { ctId: In([...new Set(ctIds)]) });
    return new Map(
      found.map((c) => [
        c.ctId,
        {
          ctId: c.ctId,
          label: c.label,
          dataType: c.dataType as DataType,
          status: c.status,
          successorCtId: c.successorCtId,
          ownerId: c.ownerId,
          description: c.description,
          units: c.units,
        },
      ]),
    );
  }

  async findClustersByCtIds(ctIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, ClusterRef>> {
    const found = await manager.findBy(Cluster, { ctId: In([...new Set(ctIds)]) });
    return new Map(found.map((c) => [c.ctId, { ctId: c.ctId, label: c.label, status: c.status, successorCtId: c.successorCtId, ownerId: c.ownerId }]));
  }

  async createComponent(manager: EntityManager, input: NewComponent): Promise<Minted> {
    const label = input.label?.trim();
    if (!label) throw invalid('label', 'A component needs a label.');
    if (!isDataType(input.dataType)) throw invalid('data_type', `Unknown data_type "${input.dataType}": use one of ${DATA_TYPES.join(', ')}.`);
    return this.insertOnce(manager, 'components', {
      ...(await this.entryColumns(manager, label, input)),
      data_type: input.dataType,
      units: optionalText(input.units),
    });
  }

  /** The columns components and clusters share, as a new row of either. */
  private async entryColumns(manager: EntityManager, label: string, input: NewCluster | NewComponent) {
    const now = this.clock.now();
    return {
      ct_id: input.ctId ?? createId(),
      label,
      description: optionalText(input.description),
      status: input.status,
      project_id: input.projectId ?? (await this.libraryProjectId(manager)),
      owner_id: input.ownerId,
      mint_key: input.mintKey ?? null,
      created_at: now,
      updated_at: now,
    };
  }

  /** Children are written only by the call that created the cluster, so a retried mint never doubles them. */
  async createCluster(manager: EntityManager, input: NewCluster): Promise<Minted> {
    const label = input.label?.trim();
    if (!label) throw invalid('label', 'A cluster needs a label.');
    const minted = await this.insertOnce(manager, 'clusters', await this.entryColumns(manager, label, input));
    if (minted.created && input.children.length > 0) {
      await rows(
        manager,
        `INSERT INTO cluster_children (cluster_id, position, component_id, child_cluster_id)
         SELECT $1, ord - 1, comp, clus FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS t(comp, clus, ord)`,
        [
          minted.id,
          input.children.map((c) => ('componentId' in c ? c.componentId : null)),
          input.children.map((c) => ('clusterId' in c ? c.clusterId : null)),
        ],
      );
    }
    return minted;
  }

  async createDataModel(manager: EntityManager, input: NewDataModel): Promise<Minted> {
    const title = input.title?.trim();
    if (!title) throw invalid('title', 'A data model needs a title.');
    const now = this.clock.now();
    return this.insertOnce(manager, 'data_models', {
      ct_id: input.ctId ?? createId(),
      title,
      description: optionalText(input.description),
      root_cluster_id: input.rootClusterId,
      contextual: JSON.stringify(input.contextual ?? {}),
      published: input.published,
      project_id: input.projectId ?? (await this.libraryProjectId(manager)),
      owner_id: input.ownerId,
      mint_key: input.mintKey ?? null,
      created_at: now,
      updated_at: now,
    });
  }

  /** INSERT … ON CONFLICT DO NOTHING, then the row that was there (same mint key, or same ct_id on import). */
  private async insertOnce(
    manager: EntityManager,
    table: 'components' | 'clusters' | 'data_models',
    values: { ct_id: string; mint_key: string | null } & Record<string, unknown>,
  ): Promise<Minted> {
    const columns = Object.keys(values);
    const inserted = await one<{ id: string; ct_id: string }>(
      manager,
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT DO NOTHING RETURNING id, ct_id`,
      Object.values(values),
    );
    if (inserted) return { id: Number(inserted.id), ctId: inserted.ct_id, created: true };
    const existing = await one<{ id: string; ct_id: string }>(
      manager,
      `SELECT id, ct_id FROM ${table} WHERE mint_key = $1 OR ct_id = $2 ORDER BY (mint_key = $1) DESC NULLS LAST LIMIT 1`,
      [values.mint_key, values.ct_id],
    );
    if (!existing) throw new Error(`${table}: insert skipped but no row has mint key ${values.mint_key} or ct_id ${values.ct_id}`);
    return { id: Number(existing.id), ctId: existing.ct_id, created: false };
  }

  /** Registers an imported model and its tree as published library entries, children first; entries whose
   * ct_id is already registered are kept as they are, so importing twice changes nothing. */
  async registerImported(imported: ImportedModel): Promise<ImportResult> {
    return this.db.transaction(async (manager) => {
      const projectId = await this.libraryProjectId(manager);
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
          const minted = await this.createComponent(manager, { ...node, ctId: node.ctId, status: 'published', ownerId: null, projectId });
          (minted.created ? result.components.created : result.components.existing).push(minted.ctId);
          ref = { componentId: minted.id };
        } else {
          const children: ClusterChildRef[] = [];
          for (const child of node.children) children.push(await register(child));
          const minted = await this.createCluster(manager, { ...node, ctId: node.ctId, status: 'published', ownerId: null, projectId, children });
          (minted.created ? result.clusters.created : result.clusters.existing).push(minted.ctId);
          ref = { clusterId: minted.id };
        }
        ids.set(key, ref);
        return ref;
      };
      const root = (await register(imported.root)) as { clusterId: number };
      const model = await this.createDataModel(manager, {
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

  /** Bottom-up: every draft component and cluster of the tree, then the model. Retired entries stay retired. */
  async publishModelTree(manager: EntityManager, dmCtId: string): Promise<void> {
    const model = await one<{ id: string; root_cluster_id: string }>(manager, 'SELECT id, root_cluster_id FROM data_models WHERE ct_id = $1 FOR UPDATE', [dmCtId]);
    if (!model) throw notFound('Data model');
    await this.publishClusterTree(manager, Number(model.root_cluster_id));
    await rows(manager, 'UPDATE data_models SET published = true, updated_at = $2 WHERE id = $1 AND NOT published', [model.id, this.clock.now()]);
  }

  private async publishClusterTree(manager: EntityManager, rootClusterId: number): Promise<void> {
    const now = this.clock.now();
    const tree = `WITH RECURSIVE tree(id) AS (
        SELECT $1::bigint
        UNION SELECT cc.child_cluster_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id WHERE cc.child_cluster_id IS NOT NULL)`;
    await rows(
      manager,
      `${tree} UPDATE components SET status = 'published', updated_at = $2
        WHERE status = 'draft' AND id IN (SELECT cc.component_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id)`,
      [rootClusterId, now],
    );
    await rows(manager, `${tree} UPDATE clusters SET status = 'published', updated_at = $2 WHERE status = 'draft' AND id IN (SELECT id FROM tree)`, [
      rootClusterId,
      now,
    ]);
  }

  /** The model as every generator sees it, built from the stored rows in two queries. */
  async loadModelDocument(dmCtId: string, manager: EntityManager | DataSource = this.db): Promise<DataModelDocument> {
    const model = await one<any>(
      manager,
      `SELECT dm.ct_id, dm.title, dm.description, dm.root_cluster_id, dm.created_at, u.name AS author
         FROM data_models dm LEFT JOIN users u ON u.id = dm.owner_id WHERE dm.ct_id = $1`,
      [dmCtId],
    );
    if (!model) throw notFound('Data model');
    return {
      ctId: model.ct_id,
      title: model.title,
      description: model.description,
      language: 'en-US',
      author: model.author || null,
      created: model.created_at,
      root: await this.loadTree(manager, Number(model.root_cluster_id)),
    };
  }

  private async loadTree(manager: EntityManager | DataSource, rootClusterId: number): Promise<ClusterNode> {
    const placed = await rows<any>(
      manager,
      `WITH RECURSIVE tree(id) AS (
          SELECT $1::bigint
          UNION SELECT cc.child_cluster_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id WHERE cc.child_cluster_id IS NOT NULL)
       SELECT cl.id AS cluster_id, cl.ct_id AS cluster_ct_id, cl.label AS cluster_label, cl.description AS cluster_description,
              cc.position, cc.child_cluster_id,
              co.ct_id, co.label, co.data_type, co.description, co.units
         FROM tree t JOIN clusters cl ON cl.id = t.id
         LEFT JOIN cluster_children cc ON cc.cluster_id = cl.id
         LEFT JOIN components co ON co.id = cc.component_id
        ORDER BY cl.id, cc.position`,
      [rootClusterId],
    );
    const clusters = new Map<number, ClusterNode>();
    const childClusterIds = new Map<number, Array<{ position: number; clusterId: number } | { position: number; node: TreeNode }>>();
    for (const r of placed) {
      const id = Number(r.cluster_id);
      if (!clusters.has(id)) {
        clusters.set(id, { kind: 'cluster', ctId: r.cluster_ct_id, label: r.cluster_label, description: r.cluster_description, children: [] });
        childClusterIds.set(id, []);
      }
      if (r.position === null) continue;
      const slots = childClusterIds.get(id)!;
      if (r.child_cluster_id !== null) slots.push({ position: r.position, clusterId: Number(r.child_cluster_id) });
      else slots.push({ position: r.position, node: { kind: 'component', ctId: r.ct_id, label: r.label, dataType: r.data_type, description: r.description, units: r.units } });
    }
    for (const [id, slots] of childClusterIds) {
      clusters.get(id)!.children = slots.map((s) => ('node' in s ? s.node : clusters.get(s.clusterId)!));
    }
    const root = clusters.get(rootClusterId);
    if (!root) throw new Error(`Root cluster ${rootClusterId} is missing`);
    return root;
  }

  /** 404 for a draft that is not the viewer's, so its ct_id does not leak. */
  async modelDetail(dmCtId: string, viewer: Viewer): Promise<ModelDetail> {
    const row = await one<any>(
      this.db,
      `SELECT dm.*, p.name AS project_name FROM data_models dm JOIN projects p ON p.id = dm.project_id
        WHERE dm.ct_id = $1 AND (dm.published OR dm.owner_id = $2)`,
      [dmCtId, viewer.userId],
    );
    if (!row) throw notFound('Data model');
    return {
      ctId: row.ct_id,
      title: row.title,
      description: row.description,
      projectName: row.project_name,
      contextual: row.contextual,
      published: row.published,
      generated: row.generated,
      ownerId: row.owner_id === null ? null : Number(row.owner_id),
      created: row.created_at,
      updated: row.updated_at,
      root: await this.loadTree(this.db, Number(row.root_cluster_id)),
    };
  }

  /** The viewer's document of a model, with the same visibility rule as its detail. */
  async visibleModelDocument(dmCtId: string, viewer: Viewer): Promise<DataModelDocument> {
    await this.requireVisibleModel(dmCtId, viewer);
    return this.loadModelDocument(dmCtId);
  }

  async requireVisibleModel(dmCtId: string, viewer: Viewer): Promise<DataModel> {
    const model = await this.db.manager.findOne(DataModel, { where: [{ ctId: dmCtId, published: true }, { ctId: dmCtId, ownerId: viewer.userId }] });
    if (!model) throw notFound('Data model');
    return model;
  }

  /** Newest first, at most MAX_MODELS_LISTED; `search` matches title, description or the ct_id. */
  async listModels(query: { search?: unknown }, viewer: Viewer): Promise<ModelSummary[]> {
    const search = filterText(query.search, 'search');
    const found = await rows<any>(
      this.db,
      `SELECT dm.ct_id, dm.title, dm.description, dm.published, dm.created_at, dm.updated_at, p.name AS project_name
         FROM data_models dm JOIN projects p ON p.id = dm.project_id
        WHERE (dm.published OR dm.owner_id = $1)
          AND ($2::text IS NULL OR dm.title ILIKE $2 OR dm.description ILIKE $2 OR dm.ct_id = $3)
        ORDER BY dm.updated_at DESC, dm.id DESC LIMIT ${MAX_MODELS_LISTED}`,
      [viewer.userId, search === null ? null : likePattern(search), search],
    );
    return found.map((r) => ({
      ctId: r.ct_id,
      title: r.title,
      description: r.description,
      projectName: r.project_name,
      published: r.published,
      created: r.created_at,
      updated: r.updated_at,
    }));
  }

  async listComponents(query: ComponentQuery, viewer: Viewer): Promise<Page<ComponentListing>> {
    const type = parseDataType(query.type);
    const project = filterText(query.project, 'project');
    const search = filterText(query.search, 'search');
    const status = filterText(query.status, 'status');
    if (status !== null && !['draft', 'published', 'retired'].includes(status)) throw invalid('status', 'status must be draft, published or retired.');
    const where = `FROM components c JOIN projects p ON p.id = c.project_id
      WHERE (c.status <> 'draft' OR c.owner_id = $1)
        AND ($2::text IS NULL OR c.data_type = $2)
        AND ($3::text IS NULL OR p.name = $3)
        AND ($4::text IS NULL OR c.label ILIKE $4 OR c.description ILIKE $4 OR c.ct_id = $5)
        AND ($6::text IS NULL OR c.status = $6)`;
    const values = [viewer.userId, type, project, search === null ? null : likePattern(search), search, status];
    return this.labelledPage(query, 'c.ct_id, c.label, c.description, c.data_type, c.units, c.status, c.successor_ct_id, p.name AS project_name', where, values, (r) => ({
      ctId: r.ct_id,
      label: r.label,
      description: r.description,
      dataType: r.data_type,
      projectName: r.project_name,
      units: r.units,
      status: r.status,
      successorCtId: r.successor_ct_id,
    }));
  }

  async listClusters(query: Omit<ComponentQuery, 'type'>, viewer: Viewer): Promise<Page<ClusterListing>> {
    const project = filterText(query.project, 'project');
    const search = filterText(query.search, 'search');
    const where = `FROM clusters c JOIN projects p ON p.id = c.project_id
      WHERE (c.status <> 'draft' OR c.owner_id = $1)
        AND ($2::text IS NULL OR p.name = $2)
        AND ($3::text IS NULL OR c.label ILIKE $3 OR c.description ILIKE $3 OR c.ct_id = $4)`;
    const values = [viewer.userId, project, search === null ? null : likePattern(search), search];
    const columns = `c.ct_id, c.label, c.description, c.status, c.successor_ct_id, p.name AS project_name,
                (SELECT count(*)::int FROM cluster_children cc WHERE cc.cluster_id = c.id) AS child_count`;
    return this.labelledPage(query, columns, where, values, (r) => ({
      ctId: r.ct_id,
      label: r.label,
      description: r.description,
      projectName: r.project_name,
      status: r.status,
      successorCtId: r.successor_ct_id,
      childCount: r.child_count,
    }));
  }

  /** One page of `where` (aliased `c`, ordered by label then ct_id) with the total count, rows shaped by `shape`. */
  private async labelledPage<T>(
    query: { page?: unknown; pageSize?: unknown },
    columns: string,
    where: string,
    values: unknown[],
    shape: (row: any) => T,
  ): Promise<Page<T>> {
    const page = positiveInt(query.page, 'page', 1);
    const pageSize = positiveInt(query.pageSize, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const [total, found] = await Promise.all([
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n ${where}`, values),
      rows<any>(this.db, `SELECT ${columns} ${where} ORDER BY lower(c.label), c.ct_id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`, values),
    ]);
    return { count: total!.n, page, pageSize, results: found.map(shape) };
  }

  /** What the viewer can see, per project: the library, the viewer's projects and any with visible entries. */
  async index(viewer: Viewer): Promise<CatalogIndex> {
    const projects = await rows<any>(
      this.db,
      `SELECT * FROM (
         SELECT p.name, p.is_library, p.owner_id,
                (SELECT count(*)::int FROM components c WHERE c.project_id = p.id AND (c.status <> 'draft' OR c.owner_id = $1)) AS components,
                (SELECT count(*)::int FROM clusters c WHERE c.project_id = p.id AND (c.status <> 'draft' OR c.owner_id = $1)) AS clusters,
                (SELECT count(*)::int FROM data_models d WHERE d.project_id = p.id AND (d.published OR d.owner_id = $1)) AS data_models
           FROM projects p) listed
        WHERE is_library OR owner_id = $1 OR components + clusters + data_models > 0
        ORDER BY is_library DESC, name`,
      [viewer.userId],
    );
    const listed = projects.map((p) => ({ name: p.name, isLibrary: p.is_library, components: p.components, clusters: p.clusters, dataModels: p.data_models }));
    const sum = (key: 'components' | 'clusters' | 'dataModels') => listed.reduce((n, p) => n + p[key], 0);
    return { dataTypes: DATA_TYPES, counts: { components: sum('components'), clusters: sum('clusters'), dataModels: sum('dataModels') }, projects: listed };
  }

  /** Publishes a draft component, a cluster with its draft subtree, or a model with its whole tree. */
  async publish(ctId: string): Promise<LifecycleResult> {
    return this.db.transaction(async (manager) => {
      const kind = await this.kindOf(manager, ctId);
      if (kind === 'data_model') {
        await this.publishModelTree(manager, ctId);
        return { kind, ctId, status: 'published', successorCtId: null };
      }
      const entry = await this.lockEntry(manager, kind, ctId);
      if (entry.status === 'retired') throw conflict('retired', `${ctId} is retired; retired entries are not published again.`, { ct_id: ctId });
      if (kind === 'cluster') await this.publishClusterTree(manager, entry.id);
      else await rows(manager, `UPDATE components SET status = 'published', updated_at = $2 WHERE id = $1 AND status = 'draft'`, [entry.id, this.clock.now()]);
      return { kind, ctId, status: 'published', successorCtId: null };
    });
  }

  /** Retires a published component or cluster, optionally naming a published successor of the same kind. */
  async retire(ctId: string, successorCtId: string | null): Promise<LifecycleResult> {
    return this.db.transaction(async (manager) => {
      const kind = await this.kindOf(manager, ctId);
      if (kind === 'data_model') throw badRequest('Data models are not retired; retire its components or clusters.');
      const table = kind === 'component' ? 'components' : 'clusters';
      const entry = await this.lockEntry(manager, kind, ctId);
      if (entry.status === 'draft') throw conflict('not_published', `${ctId} is a draft; only published entries are retired.`, { ct_id: ctId });
      if (successorCtId !== null) {
        if (successorCtId === ctId) throw invalid('successor', 'An entry cannot succeed itself.');
        const successor = await one<any>(manager, `SELECT status FROM ${table} WHERE ct_id = $1`, [successorCtId]);
        if (!successor) throw new DomainError(404, 'not_found', `Successor ${successorCtId} is not a ${kind}.`);
        if (successor.status !== 'published') {
          throw conflict('successor_not_published', `Successor ${successorCtId} is ${successor.status}; name a published ${kind}.`, { successor: successorCtId });
        }
      }
      await rows(manager, `UPDATE ${table} SET status = 'retired', successor_ct_id = $2, updated_at = $3 WHERE id = $1`, [entry.id, successorCtId, this.clock.now()]);
      return { kind, ctId, status: 'retired', successorCtId };
    });
  }

  private async lockEntry(manager: EntityManager, kind: 'component' | 'cluster', ctId: string): Promise<Component | Cluster> {
    return manager.findOneOrFail(kind === 'component' ? Component : Cluster, { where: { ctId }, lock: { mode: 'pessimistic_write' } });
  }

  private async kindOf(manager: EntityManager, ctId: string): Promise<CatalogKind> {
    const row = await one<{ kind: CatalogKind }>(
      manager,
      `SELECT 'component' AS kind FROM components WHERE ct_id = $1
       UNION ALL SELECT 'cluster' FROM clusters WHERE ct_id = $1
       UNION ALL SELECT 'data_model' FROM data_models WHERE ct_id = $1 LIMIT 1`,
      [ctId],
    );
    if (!row) throw new DomainError(404, 'not_found', `No component, cluster or data model has ct_id ${ctId}.`);
    return row.kind;
  }
}
