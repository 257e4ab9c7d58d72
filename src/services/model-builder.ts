import { idsByCtId } from '../db/queries/catalog.sql';
import { query, queryOne } from '../db/sql';
import type { Tx } from '../db/transaction';
import { defaultProjectOf } from '../db/queries/projects.sql';
import { heldBuildDeleted, heldBuildPrefix, heldBuilds, heldBuildUsed, lockHeldBuild } from '../db/queries/ledger-held-builds.sql';
import type { EnumerationValue } from '../parsers/assembly-component.parser';
import type { AssemblyRequest, ClusterSpec } from '../parsers/assembly.parser';
import type { CatalogStatus } from '../entities/catalog-entry';
import { unitsResolver } from './drafts-units-text';
import type { ReuseTree } from '../db/queries/model-build.sql';
import { newId } from '../lib/ids';
import { clusterLabel, modelTitle, optionalText } from './catalog-mint.service';

/** What assembly needs from the catalog (CatalogService provides it). */
export interface CatalogForAssembly {
  createComponent(
    manager: Tx,
    input: {
      label: string;
      dataType: string;
      description: string | null;
      units: string | null;
      enumeration?: EnumerationValue[] | null;
      status: CatalogStatus;
      ownerId: number;
      mintKey?: string;
      projectId?: number;
      paid?: boolean;
    },
  ): Promise<{ id: number; ctId: string }>;
  createCluster(
    manager: Tx,
    input: {
      label: string;
      description: string | null;
      status: CatalogStatus;
      ownerId: number;
      children: Array<{ componentId: number } | { clusterId: number }>;
      mintKey?: string;
      projectId?: number;
      paid?: boolean;
    },
  ): Promise<{ id: number; ctId: string }>;
  createDataModel(
    manager: Tx,
    input: {
      title: string;
      description: string | null;
      rootClusterId: number;
      contextual: Record<string, unknown>;
      published: boolean;
      ownerId: number;
      mintKey?: string;
      projectId?: number;
      paid?: boolean;
    },
  ): Promise<{ id: number; ctId: string }>;
  publishModelTree(manager: Tx, dmCtId: string): Promise<void>;
}

export interface BuiltModel {
  dmCtId: string;
  published: boolean;
}

/** Writes an assembly's tree into the catalog inside the caller's transaction: the reuse path, the mixed job and
 * the upload job all build through it, and each charges for what it mints, so every row is minted `paid`. */
export class ModelBuilder {
  constructor(private readonly catalog: CatalogForAssembly) {}

  /** Creates the model bottom-up. With `mintKeyPrefix`, every row is minted idempotently (a retried pipeline
   * step finds what it made before). New components are minted as drafts unless `publish` says otherwise. */
  async build(manager: Tx, request: AssemblyRequest, ownerId: number, options: { publish: boolean; mintKeyPrefix?: string }): Promise<BuiltModel> {
    const status: CatalogStatus = options.publish ? 'published' : 'draft';
    const key = (path: string) => (options.mintKeyPrefix ? `${options.mintKeyPrefix}:${path}` : undefined);
    const reusedComponents = await this.idsByCtId(manager, 'components', collectCtIds(request.root, 'component'));
    const reusedClusters = await this.idsByCtId(manager, 'clusters', collectCtIds(request.root, 'cluster'));
    const storedUnits = await unitsResolver(manager, ownerId, collectMintUnits(request.root));
    // The owner's default project, read once for every row (without one, each row goes to the library).
    const projectId = await queryOne(manager, defaultProjectOf(ownerId)).then((p) => (p ? Number(p.id) : undefined));
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
            units: storedUnits(c.units),
            enumeration: c.enumeration ?? null,
            status,
            ownerId,
            mintKey: key(c.path),
            projectId,
            paid: true,
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
        projectId,
        paid: true,
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
      projectId,
      paid: true,
    });
    return { dmCtId: model.ctId, published: options.publish };
  }

  /** The mint-key prefix of a build made under the request hold `token` (see `undoHeldBuilds`). */
  static heldPrefix(token: string): string {
    return heldBuildPrefix(token);
  }

  /** Removes what was built under the request holds `tokens` (minted with `heldPrefix`), in the transaction that
   * releases them: a hold released instead of captured leaves nothing unpaid in the catalog. Except what someone
   * else came to use meanwhile (placed one of its clusters in their own tree: deleting it would break theirs): that
   * stays, marked never paid for (publishing a draft of it charges it), and the hold is released all the same,
   * since the request that built it never got its model. */
  static async undoHeldBuilds(manager: Tx, tokens: string[]): Promise<void> {
    const found = await queryOne(manager, heldBuilds(tokens));
    if (!found?.models.length) return;
    const ids = (list: string[]) => list.map(Number);
    const [models, clusters, components] = [ids(found.models), ids(found.clusters), ids(found.components)];
    await query(manager, lockHeldBuild(clusters, components));
    const used = await queryOne(manager, heldBuildUsed(clusters, components, models));
    const keptClusters = new Set(ids(used?.clusters ?? []));
    const keptComponents = new Set(ids(used?.components ?? []));
    const unused = (list: number[], kept: Set<number>) => list.filter((id) => !kept.has(id));
    await query(manager, heldBuildDeleted.models(models));
    const goneClusters = unused(clusters, keptClusters);
    if (goneClusters.length) {
      await query(manager, heldBuildDeleted.children(goneClusters));
      await query(manager, heldBuildDeleted.clusters(goneClusters));
    }
    const goneComponents = unused(components, keptComponents);
    if (goneComponents.length) await query(manager, heldBuildDeleted.components(goneComponents));
    if (keptClusters.size) await query(manager, heldBuildDeleted.keptClusters([...keptClusters]));
    if (keptComponents.size) await query(manager, heldBuildDeleted.keptComponents([...keptComponents]));
  }

  private async idsByCtId(manager: Tx, table: 'components' | 'clusters', ctIds: string[]): Promise<Map<string, number>> {
    if (!ctIds.length) return new Map();
    const found = await query(manager, idsByCtId(table, ctIds));
    return new Map(found.map((r) => [r.ct_id, Number(r.id)]));
  }
}

/** The row ids of an assembly's reused components and clusters, by ct_id (resolved when it was planned). */
export interface ReusedIds {
  components: ReadonlyMap<string, number>;
  clusters: ReadonlyMap<string, number>;
}

/** The rows of an assembly that mints no component (the reuse path), for insertReuseTree's one statement: its new
 * clusters (labels and descriptions stored as CatalogMinter stores them), their places in order and the model,
 * each keyed `{mintKeyPrefix}:{path}` like `ModelBuilder.build` keys them (undoHeldBuilds finds them by it). */
export function reuseTree(
  request: AssemblyRequest,
  ids: ReusedIds,
  ownerId: number,
  options: { publish: boolean; mintKeyPrefix: string | null; now: Date },
): ReuseTree {
  const key = (path: string) => (options.mintKeyPrefix ? `${options.mintKeyPrefix}:${path}` : null);
  const tree: ReuseTree = {
    ownerId,
    status: options.publish ? 'published' : 'draft',
    now: options.now,
    clusters: { ctIds: [], labels: [], descriptions: [], mintKeys: [] },
    places: { parentCtIds: [], positions: [], componentIds: [], newClusterCtIds: [], clusterIds: [] },
    model: {
      ctId: newId(),
      title: modelTitle(request.title),
      description: optionalText(request.description),
      rootCtId: null,
      rootClusterId: null,
      contextual: Object.fromEntries(request.contextual.map((c) => [c.name, { ct_id: c.ctId }])),
      published: options.publish,
      mintKey: key('model'),
    },
  };
  const reused = (table: ReadonlyMap<string, number>, ctId: string) => {
    const id = table.get(ctId);
    if (id === undefined) throw new Error(`${ctId} was not resolved when the assembly was planned`);
    return id;
  };
  const place = (parentCtId: string, position: number, child: { componentId?: number; newClusterCtId?: string; clusterId?: number }) => {
    tree.places.parentCtIds.push(parentCtId);
    tree.places.positions.push(position);
    tree.places.componentIds.push(child.componentId ?? null);
    tree.places.newClusterCtIds.push(child.newClusterCtId ?? null);
    tree.places.clusterIds.push(child.clusterId ?? null);
  };
  /** A cluster's place: a reused cluster's id, or the ct_id of the cluster minted for it (its places added). */
  const addCluster = (spec: ClusterSpec): { clusterId: number } | { newClusterCtId: string } => {
    if (spec.ctId) return { clusterId: reused(ids.clusters, spec.ctId) };
    const ctId = newId();
    let position = 0;
    for (const c of spec.components) {
      if (c.kind !== 'reuse') throw new Error(`reuseTree: ${c.path} mints a component; build it with ModelBuilder.build`);
      place(ctId, position++, { componentId: reused(ids.components, c.ctId) });
    }
    for (const child of spec.clusters) place(ctId, position++, addCluster(child));
    // After its children, so ids grow bottom-up as ModelBuilder.build mints them.
    tree.clusters.ctIds.push(ctId);
    tree.clusters.labels.push(clusterLabel(spec.label));
    tree.clusters.descriptions.push(optionalText(spec.description));
    tree.clusters.mintKeys.push(key(spec.path));
    return { newClusterCtId: ctId };
  };
  const root = addCluster(request.root);
  if ('clusterId' in root) tree.model.rootClusterId = root.clusterId;
  else tree.model.rootCtId = root.newClusterCtId;
  return tree;
}

/** Every cluster of an assembly's tree, the root included. */
function clustersOf(root: ClusterSpec): ClusterSpec[] {
  const out: ClusterSpec[] = [];
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    out.push(c);
    stack.push(...c.clusters);
  }
  return out;
}

/** The `units` texts of the components an assembly mints (a Units ct_id among them becomes its label). */
const collectMintUnits = (root: ClusterSpec) =>
  clustersOf(root).flatMap((c) => c.components.flatMap((comp) => (comp.kind === 'mint' ? [comp.units] : [])));

function collectCtIds(root: ClusterSpec, kind: 'component' | 'cluster'): string[] {
  const clusters = clustersOf(root);
  if (kind === 'cluster') return clusters.flatMap((c) => (c.ctId ? [c.ctId] : []));
  return clusters.flatMap((c) => c.components.flatMap((comp) => (comp.kind === 'reuse' ? [comp.ctId] : [])));
}
