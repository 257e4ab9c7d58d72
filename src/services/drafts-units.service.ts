import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/drafts-units.sql';
import { updateEntry } from '../db/queries/drafts.sql';
import { queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import type { PageRequest } from '../parsers/catalog.parser';
import type { NewUnitsDraft, UnitsFields } from '../parsers/drafts-units.parser';
import type { PageView } from '../presenters/catalog.presenter';
import { unitsDraftView, type UnitsDraftView } from '../presenters/drafts-units.presenter';
import type { Clock } from './clock';
import { draftNotFound, immutable } from './drafts-components.service';
import { ownProjectId, pageOf, setPredObjs } from './drafts-semantics.service';

/** Units drafts: the Units of a quantified value, which components name by ct_id in their `units`. Creating one is
 * free, like the rest of the vocabulary (namespaces, predicates): a Units has no artefact of its own, its label ends
 * up in the derived units element of each component that names it, which that component's price already paid. */

const offset = (page: PageRequest) => (page.page - 1) * page.pageSize;

export class DraftUnitsService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, input: NewUnitsDraft): Promise<UnitsDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const projectId = await ownProjectId(manager, userId, input.projectCtId);
      if (projectId === undefined) throw notFound('Project');
      const ctId = newId();
      const values = { label: input.label, description: input.description ?? null, enums: input.enums ?? [], projectId, ownerId: userId };
      const { id } = (await queryOne(manager, q.insertUnits(ctId, values)))!;
      if (input.predObjIds?.length) await setPredObjs(manager, 'units_pred_objs', Number(id), userId, input.predObjIds);
      return this.read(manager, userId, ctId);
    });
  }

  get(userId: number, ctId: string): Promise<UnitsDraftView> {
    return this.read(this.db.manager, userId, ctId);
  }

  list(userId: number, page: PageRequest): Promise<PageView<UnitsDraftView>> {
    return pageOf(this.db, q.listedUnits(userId, page.pageSize, offset(page)), page, unitsDraftView);
  }

  /** Edits a draft of the caller's: a published one is immutable (409), anyone else's draft is not found (404).
   * Components already written keep the label they stored. */
  async update(userId: number, ctId: string, fields: UnitsFields): Promise<UnitsDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const row = await this.ownDraft(manager, userId, ctId);
      const columns: Record<string, unknown> = {};
      if (fields.label !== undefined) columns.label = fields.label;
      if (fields.description !== undefined) columns.description = fields.description;
      if (fields.enums !== undefined) columns.enums = fields.enums;
      await queryOne(manager, updateEntry('units', Number(row.id), columns, this.clock.now()));
      if (fields.predObjIds !== undefined) await setPredObjs(manager, 'units_pred_objs', Number(row.id), userId, fields.predObjIds);
      return this.read(manager, userId, ctId);
    });
  }

  /** Publishing makes a Units of a public project readable, and usable by ct_id, by everyone; it is then immutable. */
  async publish(userId: number, ctId: string): Promise<UnitsDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const row = await this.ownDraft(manager, userId, ctId);
      await queryOne(manager, q.publishUnits(Number(row.id), this.clock.now()));
      return this.read(manager, userId, ctId);
    });
  }

  private async ownDraft(manager: EntityManager, userId: number, ctId: string) {
    const row = await queryOne(manager, q.unitsDraft(userId, ctId, true));
    if (!row) throw draftNotFound('Units', ctId);
    if (row.status !== 'draft') throw immutable(ctId, row.status);
    if (!row.owned) throw draftNotFound('Units', ctId);
    return row;
  }

  private async read(manager: EntityManager, userId: number, ctId: string): Promise<UnitsDraftView> {
    const row = await queryOne(manager, q.unitsDraft(userId, ctId));
    if (!row) throw draftNotFound('Units', ctId);
    return unitsDraftView(row);
  }
}
