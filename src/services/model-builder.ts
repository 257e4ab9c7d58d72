import { idsByCtId } from '../db/queries/catalog.sql';
import { query, queryOne } from '../db/sql';
import type { Tx } from '../db/transaction';
import { defaultProjectOf } from '../db/queries/projects.sql';
import { heldBuildDeleted, heldBuildPrefix, heldBuilds } from '../db/queries/ledger-held-builds.sql';
import type { EnumerationValue } from '../parsers/assembly-component.parser';
import type { AssemblyRequest, ClusterSpec } from '../parsers/assembly.parser';
import type { CatalogStatus } from '../entities/catalog-entry';
import type { ModelView } from '../presenters/catalog.presenter';
import type { Viewer } from './catalog.service';
import { unitsResolver } from './drafts-units-text';

/** What assembly needs from the catalog (CatalogService provides it). */
export interface CatalogForAssembly {
  findComponentsByCtIds(
    ctIds: string[],
  ): Promise<
    Map<string, { ctId: string; label: string; dataType: string; status: CatalogStatus; successorCtId: string | null; ownerId: number | null }>
  >;
  findClustersByCtIds(
    ctIds: string[],
  ): Promise<Map<string, { ctId: string; label: string; status: CatalogStatus; successorCtId: string | null; ownerId: number | null }>>;
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
  modelDetailIn(tx: Tx, dmCtId: string, viewer: Viewer): Promise<ModelView>;
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
   * releases them: a hold released instead of captured leaves nothing unpaid in the catalog. */
  static async undoHeldBuilds(manager: Tx, tokens: string[]): Promise<void> {
    const found = await queryOne(manager, heldBuilds(tokens));
    if (!found?.models.length) return;
    const ids = (list: string[]) => list.map(Number);
    await query(manager, heldBuildDeleted.models(ids(found.models)));
    if (found.clusters.length) {
      await query(manager, heldBuildDeleted.children(ids(found.clusters)));
      await query(manager, heldBuildDeleted.clusters(ids(found.clusters)));
    }
    if (found.components.length) await query(manager, heldBuildDeleted.components(ids(found.components)));
  }

  private async idsByCtId(manager: Tx, table: 'components' | 'clusters', ctIds: string[]): Promise<Map<string, number>> {
    if (!ctIds.length) return new Map();
    const found = await query(manager, idsByCtId(table, ctIds));
    return new Map(found.map((r) => [r.ct_id, Number(r.id)]));
  }
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
