import type { DataSource, EntityManager } from 'typeorm';
import { unitsLabels } from '../db/queries/drafts-units.sql';
import { query } from '../db/sql';

type Units = string | null | undefined;

/** How a component's `units` is stored: the label of the Units it names by ct_id when the writer (null: anyone) may
 * read that Units, else the text as given (the unit itself). Looks every given text up in one query (an assembly's
 * mints all at once, not one query a component) and returns the rule for each of them. */
export async function unitsResolver(
  manager: EntityManager | DataSource,
  writerId: number | null,
  texts: Units[],
): Promise<<T extends Units>(units: T) => T | string> {
  const named = [...new Set(texts.filter((text): text is string => !!text))];
  const labels = new Map(named.length ? (await query(manager, unitsLabels(writerId, named))).map((r) => [r.ct_id, r.label]) : []);
  return (units) => (units ? (labels.get(units) ?? units) : units);
}

/** One component's `units` as it is stored (unitsResolver). */
export async function unitsText<T extends Units>(manager: EntityManager | DataSource, writerId: number | null, units: T): Promise<T | string> {
  return (await unitsResolver(manager, writerId, [units]))(units);
}
