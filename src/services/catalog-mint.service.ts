import { newId } from '../lib/ids';
import { insertClusterChildren, insertOnce, mintedBefore, type CatalogTable } from '../db/queries/catalog.sql';
import { defaultProjectOf } from '../db/queries/projects.sql';
import { query, queryOne } from '../db/sql';
import type { Tx } from '../db/transaction';
import { DATA_TYPES, isDataType } from '../domain/model-tree';
import type { EnumerationValue } from '../parsers/assembly-component.parser';
import type { CatalogStatus } from '../entities/catalog-entry';
import { Project } from '../entities/project.entity';
import { invalid } from '../parsers/catalog.parser';
import type { Clock } from './clock';

/** Minting catalog entries: components, clusters and data models, idempotent by mint key (a retried job step)
 * or by ct_id (an imported package). */

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
  /** The contextual slot (audit, party, …) a library component fills; `type=<slot>` lists it. */
  contextualSlot?: string | null;
  /** The codes an XdString or XdToken may take, in order, with their labels (stored as enums and enum_descr). */
  enumeration?: EnumerationValue[] | null;
  /** Minted by a door that charged for it (migration 0026); publishing a draft charges what is not. */
  paid?: boolean;
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
  paid?: boolean;
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
  paid?: boolean;
}

export interface Minted {
  id: number;
  ctId: string;
  /** False when the mint key (or the imported ct_id) was already there. */
  created: boolean;
}

/** "" means none (contract 4.17.5), as does whitespace. */
export function optionalText(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/** A new cluster's label as stored (trimmed); 400 when there is none. */
export function clusterLabel(label: string | undefined): string {
  const trimmed = label?.trim();
  if (!trimmed) throw invalid('label', 'A cluster needs a label.');
  return trimmed;
}

/** A new data model's title as stored (trimmed); 400 when there is none. */
export function modelTitle(title: string | undefined): string {
  const trimmed = title?.trim();
  if (!trimmed) throw invalid('title', 'A data model needs a title.');
  return trimmed;
}

export class CatalogMinter {
  private libraryId: Promise<number> | null = null;

  constructor(private readonly clock: Clock) {}

  /** The library project's id, read once: migration 0002 creates it and nothing removes it. */
  async libraryProjectId(manager: Tx): Promise<number> {
    this.libraryId ??= manager.findOneByOrFail(Project, { isLibrary: true }).then(
      (project) => project.id,
      (error: unknown) => {
        this.libraryId = null;
        throw new Error('The library project is missing: migration 0002-catalog was not applied.', { cause: error });
      },
    );
    return this.libraryId;
  }

  /** Where an entry goes when none is named: its owner's default project, else the library. */
  private async projectOf(manager: Tx, ownerId: number | null): Promise<number> {
    const own = ownerId === null ? undefined : await queryOne(manager, defaultProjectOf(ownerId));
    return own ? Number(own.id) : this.libraryProjectId(manager);
  }

  async createComponent(manager: Tx, input: NewComponent): Promise<Minted> {
    const label = input.label?.trim();
    if (!label) throw invalid('label', 'A component needs a label.');
    if (!isDataType(input.dataType)) throw invalid('data_type', `Unknown data_type "${input.dataType}": use one of ${DATA_TYPES.join(', ')}.`);
    return this.insertOnce(manager, 'components', {
      ...(await this.entryColumns(manager, label, input)),
      data_type: input.dataType,
      units: optionalText(input.units),
      contextual_slot: input.contextualSlot ?? null,
      ...(input.enumeration?.length
        ? {
            enums: input.enumeration.map((e) => e.code),
            enum_descr: JSON.stringify(Object.fromEntries(input.enumeration.filter((e) => e.label).map((e) => [e.code, e.label]))),
          }
        : {}),
    });
  }

  /** Children are written only by the call that created the cluster, so a retried mint never doubles them. */
  async createCluster(manager: Tx, input: NewCluster): Promise<Minted> {
    const label = clusterLabel(input.label);
    const minted = await this.insertOnce(manager, 'clusters', await this.entryColumns(manager, label, input));
    if (minted.created && input.children.length > 0) {
      const componentIds = input.children.map((c) => ('componentId' in c ? c.componentId : null));
      const clusterIds = input.children.map((c) => ('clusterId' in c ? c.clusterId : null));
      await query(manager, insertClusterChildren(minted.id, componentIds, clusterIds));
    }
    return minted;
  }

  async createDataModel(manager: Tx, input: NewDataModel): Promise<Minted> {
    const title = modelTitle(input.title);
    const now = this.clock.now();
    return this.insertOnce(manager, 'data_models', {
      ct_id: input.ctId ?? newId(),
      title,
      description: optionalText(input.description),
      root_cluster_id: input.rootClusterId,
      contextual: JSON.stringify(input.contextual ?? {}),
      published: input.published,
      project_id: input.projectId ?? (await this.projectOf(manager, input.ownerId)),
      owner_id: input.ownerId,
      mint_key: input.mintKey ?? null,
      paid: input.paid ?? false,
      created_at: now,
      updated_at: now,
    });
  }

  /** The columns components and clusters share, as a new row of either. */
  private async entryColumns(manager: Tx, label: string, input: NewCluster | NewComponent) {
    const now = this.clock.now();
    return {
      ct_id: input.ctId ?? newId(),
      label,
      description: optionalText(input.description),
      status: input.status,
      project_id: input.projectId ?? (await this.projectOf(manager, input.ownerId)),
      owner_id: input.ownerId,
      mint_key: input.mintKey ?? null,
      paid: input.paid ?? false,
      created_at: now,
      updated_at: now,
    };
  }

  /** INSERT … ON CONFLICT DO NOTHING, then the row that was there (same mint key, or same ct_id on import). */
  private async insertOnce(
    manager: Tx,
    table: CatalogTable,
    values: { ct_id: string; mint_key: string | null } & Record<string, unknown>,
  ): Promise<Minted> {
    const inserted = await queryOne(manager, insertOnce(table, values));
    if (inserted) return { id: Number(inserted.id), ctId: inserted.ct_id, created: true };
    const existing = await queryOne(manager, mintedBefore(table, values.mint_key, values.ct_id));
    if (!existing) throw new Error(`${table}: insert skipped but no row has mint key ${values.mint_key} or ct_id ${values.ct_id}`);
    return { id: Number(existing.id), ctId: existing.ct_id, created: false };
  }
}
