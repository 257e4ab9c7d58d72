import type { DataSource } from 'typeorm';
import type { ImportResult, LifecycleResult } from '../presenters/catalog.presenter';
import {
  entryStatus,
  kindOf,
  lockModel,
  publishComponent,
  publishModel,
  publishTreeClusters,
  publishTreeComponents,
  retireEntry,
  type CatalogKind,
} from '../db/queries/catalog.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried, type Tx } from '../db/transaction';
import type { ClusterNode, TreeNode } from '../domain/model-tree';
import { Cluster } from '../entities/cluster.entity';
import { Component } from '../entities/component.entity';
import { badRequest, conflict, DomainError, notFound } from '../lib/errors';
import { invalid } from '../parsers/catalog.parser';
import type { CatalogMinter, ClusterChildRef } from './catalog-mint.service';
import type { Clock } from './clock';

/** The life of catalog entries: publishing (a model with its whole tree), retiring with a successor, and
 * registering real packages as published library entries. */

/** A model read from a real package: its original ct_ids are kept. */
export interface ImportedModel {
  dm: { ctId: string; title: string; description: string | null };
  root: ClusterNode;
}

export class CatalogLifecycle {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly minter: CatalogMinter,
  ) {}

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
