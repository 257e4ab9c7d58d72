import type { DataSource, EntityManager } from 'typeorm';
import { reservedUriOf } from '../domain/well-known-prefixes';
import * as q from '../db/queries/drafts.sql';
import type { LinkTable } from '../db/queries/drafts.sql';
import type { CountRow } from '../db/queries/catalog.sql';
import { query, queryOne, type Sql } from '../db/sql';
import { conflict, DomainError, notFound } from '../lib/errors';
import type { PageRequest } from '../parsers/catalog.parser';
import type { NewNamespace, NewPredicate, NewPredObj } from '../parsers/drafts-vocabulary.parser';
import type { PageView } from '../presenters/catalog.presenter';
import { namespaceView, predicateView, predObjView, type NamespaceView, type PredicateView, type PredObjView } from '../presenters/drafts.presenter';
import { defaultProjectOf } from '../db/queries/projects.sql';

/** Semantic links as the package carries them: namespaces, predicates (a namespace and a class name: an RDF
 * predicate) and predicate-object pairs that components and clusters point at (`pred_obj`). */

/** One page of any list: a count and the rows of the page. */
export async function pageOf<Row, View>(
  db: DataSource | EntityManager,
  statements: { count: Sql<CountRow>; page: Sql<Row> },
  request: PageRequest,
  view: (row: Row) => View,
): Promise<PageView<View>> {
  const [total, found] = await Promise.all([queryOne(db, statements.count), query(db, statements.page)]);
  return { count: total!.n, page: request.page, pageSize: request.pageSize, results: found.map(view) };
}

const offset = (page: PageRequest) => (page.page - 1) * page.pageSize;

/** A project the caller owns, named by ct_id, else the caller's default project; 404 for anyone else's. */
export async function ownProjectId(manager: EntityManager | DataSource, userId: number, projectCtId: string | null): Promise<number | undefined> {
  if (projectCtId === null) {
    const own = await queryOne(manager, defaultProjectOf(userId));
    return own ? Number(own.id) : undefined;
  }
  const found = await queryOne(manager, q.ownProject(userId, projectCtId));
  if (!found) throw new DomainError(404, 'not_found', `No project of yours has ct_id ${projectCtId}.`, { project: projectCtId });
  return Number(found.id);
}

/** Replaces the semantic links of a component, cluster or Units; every id must name a pair the user may use. */
export async function setPredObjs(manager: EntityManager, table: LinkTable, entryId: number, userId: number, ids: number[]): Promise<void> {
  const usable = new Set((await query(manager, q.usablePredObjs(userId, ids))).map((r) => Number(r.id)));
  const unknown = ids.filter((id) => !usable.has(id));
  if (unknown.length)
    throw new DomainError(400, 'invalid_request', `Unknown pred_obj ids: ${unknown.join(', ')}.`, { details: { pred_obj: unknown } });
  await query(manager, q.clearPredObjs(table, entryId));
  if (ids.length) await query(manager, q.insertPredObjs(table, entryId, ids));
}

export class DraftSemanticsService {
  constructor(private readonly db: DataSource) {}

  /** The shared namespaces and the viewer's own. */
  listNamespaces(viewerId: number, page: PageRequest): Promise<PageView<NamespaceView>> {
    return pageOf(this.db, q.namespacesPage(viewerId, page.pageSize, offset(page)), page, namespaceView);
  }

  /** Prefixes are per user: 409 when the user already holds the abbreviation for another URI, or it is a
   * well-known prefix (foaf, prov, xsd, …) given another URI than its own; the same pair again answers the
   * existing namespace. Another user's prefix neither blocks nor changes this one. A well-known prefix with its
   * own URI is shared: registered without an owner, so no first comer holds it. */
  async createNamespace(userId: number, input: NewNamespace): Promise<{ namespace: NamespaceView; created: boolean }> {
    const reserved = reservedUriOf(input.abbrev);
    if (reserved !== null && (reserved !== input.uri || input.abbrev !== input.abbrev.toLowerCase())) {
      throw conflict('namespace_reserved', `The prefix ${input.abbrev} is reserved for ${reserved}.`, {
        abbrev: input.abbrev.toLowerCase(),
        uri: reserved,
      });
    }
    const owner = reserved === null ? userId : null;
    const inserted = await queryOne(this.db, q.insertNamespace(input.abbrev, input.uri, owner));
    if (inserted) return { namespace: namespaceView(inserted), created: true };
    const existing = (await queryOne(this.db, q.ownNamespace(owner, input.abbrev)))!;
    if (existing.uri !== input.uri) {
      throw conflict('namespace_exists', `The prefix ${input.abbrev} already names ${existing.uri}.`, { abbrev: input.abbrev, uri: existing.uri });
    }
    return { namespace: namespaceView(existing), created: false };
  }

  listPredicates(page: PageRequest): Promise<PageView<PredicateView>> {
    return pageOf(this.db, q.predicatesPage(page.pageSize, offset(page)), page, predicateView);
  }

  /** The same namespace and class name again answers the existing predicate. The prefix names the user's own
   * namespace, else the shared one. */
  async createPredicate(userId: number, input: NewPredicate): Promise<{ predicate: PredicateView; created: boolean }> {
    const ns = await queryOne(this.db, q.namespaceFor(userId, input.namespace));
    if (!ns) throw new DomainError(404, 'not_found', `No namespace is ${input.namespace}.`, { ns_abbrev: input.namespace });
    const row = (await queryOne(this.db, q.upsertPredicate(Number(ns.id), input.className, userId)))!;
    const predicate = (await queryOne(this.db, q.predicateById(Number(row.id))))!;
    return { predicate: predicateView(predicate), created: row.created };
  }

  listPredObjs(userId: number, page: PageRequest): Promise<PageView<PredObjView>> {
    return pageOf(this.db, q.ownPredObjsPage(userId, page.pageSize, offset(page)), page, predObjView);
  }

  async createPredObj(userId: number, input: NewPredObj): Promise<PredObjView> {
    const projectId = await ownProjectId(this.db, userId, input.projectCtId);
    if (projectId === undefined) throw notFound('Project');
    if (!(await queryOne(this.db, q.predicateById(input.predicateId)))) {
      throw new DomainError(404, 'not_found', `No predicate has id ${input.predicateId}.`, { predicate: input.predicateId });
    }
    const { id } = (await queryOne(this.db, q.insertPredObj(input.predicateId, input.objectUri, input.poName, projectId, userId)))!;
    return predObjView((await queryOne(this.db, q.predObjById(Number(id))))!);
  }
}
