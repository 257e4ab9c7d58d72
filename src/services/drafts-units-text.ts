import type { DataSource, EntityManager } from 'typeorm';
import { unitsLabel } from '../db/queries/drafts-units.sql';
import { queryOne } from '../db/sql';

/** A component's `units` as it is stored: the label of the Units it names by ct_id when the writer (null: anyone)
 * may read that Units, else the text as given (the unit itself). Drafts writes and assembly mints both go through it. */
export async function unitsText<T extends string | null | undefined>(
  manager: EntityManager | DataSource,
  writerId: number | null,
  units: T,
): Promise<T | string> {
  if (!units) return units;
  const named = await queryOne(manager, unitsLabel(writerId, units));
  return named ? named.label : units;
}
