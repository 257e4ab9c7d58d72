import type { DataSource } from 'typeorm';
import type { CatalogService } from './catalog.service';
import type { Clock } from './clock';
import { DraftComponentsService } from './drafts-components.service';
import { DraftSemanticsService } from './drafts-semantics.service';
import { DraftStructureService } from './drafts-structure.service';
import { DraftUnitsService } from './drafts-units.service';
import type { LedgerService } from '../money';

/** The drafts API that modeling tools write with, by role: components (minting charges), clusters and models
 * (with publishing), the semantic links the package carries, and the Units components name. */
export interface DraftsServices {
  components: DraftComponentsService;
  structure: DraftStructureService;
  semantics: DraftSemanticsService;
  units: DraftUnitsService;
}

export function createDraftsServices(db: DataSource, clock: Clock, catalog: CatalogService, ledger: LedgerService): DraftsServices {
  return {
    components: new DraftComponentsService(db, clock, catalog, ledger),
    structure: new DraftStructureService(db, clock, catalog, ledger),
    semantics: new DraftSemanticsService(db),
    units: new DraftUnitsService(db, clock),
  };
}
