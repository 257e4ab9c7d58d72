import type { DataSource } from 'typeorm';
import { contextualLibrary, installContextual, modelContextual, type ContextualRow } from '../db/queries/contextual.sql';
import { query } from '../db/sql';
import { transactionRetried, type Queryable } from '../db/transaction';
import { Project } from '../entities/project.entity';
import type { ContextualComponent } from '../packages/contextual-slots';
import { CONTEXTUAL_LIBRARY, isContextualSlot, SLOT_COMPONENT_TYPE } from '../packages/contextual-library';
import type { ContextualInstallView } from '../presenters/contextual.presenter';

/** The contextual library (one published component per slot, in the library project) and the contextual
 * components a model references. */

function component(row: ContextualRow): ContextualComponent[] {
  if (!isContextualSlot(row.slot)) return [];
  return [{ slot: row.slot, ctId: row.ct_id, label: row.label, description: row.description, componentType: row.data_type }];
}

export class ContextualService {
  constructor(private readonly db: DataSource) {}

  /** Restores the library entries that are missing (migration 0011 ships them); a second run changes nothing. */
  async install(): Promise<ContextualInstallView> {
    return transactionRetried(this.db, async (manager) => {
      const library = await manager.findOneByOrFail(Project, { isLibrary: true });
      const entries = CONTEXTUAL_LIBRARY.map((e) => ({ ...e, dataType: SLOT_COMPONENT_TYPE[e.slot] }));
      const created = new Set((await query(manager, installContextual(entries, library.id))).map((r) => r.ct_id));
      return {
        created: CONTEXTUAL_LIBRARY.filter((e) => created.has(e.ctId)).map((e) => e.ctId),
        existing: CONTEXTUAL_LIBRARY.filter((e) => !created.has(e.ctId)).map((e) => e.ctId),
      };
    });
  }

  /** The published library entries, in slot order. */
  async library(): Promise<ContextualComponent[]> {
    return (await query(this.db, contextualLibrary())).flatMap(component);
  }

  /** The components a model's `contextual` object names (an unknown slot or ct_id is left out). */
  async forModel(on: Queryable, dmCtId: string): Promise<ContextualComponent[]> {
    return (await query(on, modelContextual(dmCtId))).flatMap(component);
  }
}
