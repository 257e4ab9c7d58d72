import type { Static } from '../lib/json-schema';
import type { unitsDraftSchema } from './drafts.schema';
import type { UnitsDraftRow } from '../db/queries/drafts-units.sql';
import { entryView, renderEntry, type EntryView } from './drafts.presenter';

/** A Units draft: the service's view and its REST body, shaped like the other drafts (`enums` newline-joined). */

export interface UnitsDraftView extends EntryView {
  enums: string[];
}

export const unitsDraftView = (row: UnitsDraftRow): UnitsDraftView => ({ ...entryView(row), enums: row.enums });

export const renderUnitsDraft = (units: UnitsDraftView): Static<typeof unitsDraftSchema> => ({
  ...renderEntry(units),
  type: 'units',
  component_type: 'Units',
  enums: units.enums.join('\n'),
});
