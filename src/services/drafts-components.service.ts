import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/drafts.sql';
import { queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { conflict, DomainError } from '../lib/errors';
import { invalid, type PageRequest } from '../parsers/catalog.parser';
import { requireUnits, type ComponentFields, type DraftDataType, type NewComponentDraft } from '../parsers/drafts.parser';
import type { PageView } from '../presenters/catalog.presenter';
import { componentDraftView, type ComponentDraftView, type ComponentMintView } from '../presenters/drafts.presenter';
import { PRICES } from '../money';
import type { Caller } from './auth.service';
import type { CatalogService } from './catalog.service';
import type { Clock } from './clock';
import { ownProjectId, pageOf, setPredObjs } from './drafts-semantics.service';
import { unitsText } from './drafts-units-text';
import { recordOutcome, replayOr, type LedgerService } from '../money';

/** Components of the drafts API: minting one is a charge (the assembly's component price, through the ledger, in
 * the transaction that creates it, so a refused charge creates nothing); reading and editing while a draft. */

export const draftNotFound = (what: string, ctId: string) =>
  new DomainError(404, 'not_found', `No ${what} of yours has ct_id ${ctId}.`, { ct_id: ctId });

/** The stored columns of a component's editable fields; enumerations and their descriptions are judged together. */
function componentColumns(fields: ComponentFields, current: { enums: string[]; enumDescr: Record<string, string>; dataType: string }) {
  const values: Record<string, unknown> = {};
  if (fields.label !== undefined) values.label = fields.label;
  if (fields.description !== undefined) values.description = fields.description;
  if (fields.units !== undefined) values.units = fields.units;
  const enums = fields.enums ?? current.enums;
  let enumDescr = fields.enumDescr === undefined ? current.enumDescr : byEnumValue(fields.enumDescr, enums);
  if (fields.enums !== undefined && fields.enumDescr === undefined) {
    enumDescr = Object.fromEntries(Object.entries(enumDescr).filter(([key]) => enums.includes(key)));
  }
  const stray = Object.keys(enumDescr).find((key) => !enums.includes(key));
  if (stray !== undefined) throw invalid('enum_descr', `enum_descr describes "${stray}", which is not one of the enums.`);
  if (enums.length && !['XdString', 'XdToken', 'XdOrdinal'].includes(current.dataType)) {
    throw invalid('enums', `${current.dataType} takes no enumeration; use an xd-string, xd-token or xd-ordinal.`);
  }
  if (fields.enums !== undefined) values.enums = enums;
  if (fields.enums !== undefined || fields.enumDescr !== undefined) values.enum_descr = JSON.stringify(enumDescr);
  if (fields.details !== undefined) values.details = JSON.stringify(fields.details);
  return values;
}

/** `enum_descr` keyed by enum value, as stored. The FAIR enrichment scripts key it by a code that is no enum value
 * and give the enum value as the text (`1: Male`, `2: Female` for enums `Male`, `Female`): when no key is an enum
 * value and every text is one, each code becomes the description of the enum value its text names, in the order
 * given. Anything else is judged as value → description below (a stray key is a 400). */
function byEnumValue(described: Record<string, string>, enums: string[]): Record<string, string> {
  const entries = Object.entries(described);
  const byCode = entries.length > 0 && entries.every(([key, label]) => !enums.includes(key) && enums.includes(label.trim()));
  if (!byCode) return described;
  const out: Record<string, string> = {};
  for (const [code, label] of entries) {
    if (out[label.trim()] !== undefined) throw invalid('enum_descr', `enum_descr gives "${label.trim()}" two codes.`);
    out[label.trim()] = code;
  }
  return out;
}

export class DraftComponentsService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly catalog: Pick<CatalogService, 'createComponent'>,
    private readonly ledger: LedgerService,
  ) {}

  /** Charges the component price and mints a draft, in one transaction: 402 (or the key's 403) creates nothing. */
  async create(caller: Caller, draft: NewComponentDraft): Promise<ComponentMintView> {
    const userId = caller.user.id;
    const price = PRICES.component;
    return replayOr(() =>
      transactionRetried(this.db, async (manager) => {
        const projectId = await ownProjectId(manager, userId, draft.projectCtId);
        const input = { ...draft, units: await unitsText(manager, userId, draft.units) };
        const columns = componentColumns(input, { enums: [], enumDescr: {}, dataType: input.dataType });
        const charge = await this.ledger.charge(
          { userId, amount: price, reason: `mint ${input.dataType}: ${input.label}`, apiKeyId: caller.key?.id ?? null },
          manager,
        );
        const minted = await this.catalog.createComponent(manager, {
          label: input.label,
          dataType: input.dataType,
          description: input.description,
          units: input.units,
          status: 'draft',
          ownerId: userId,
          projectId,
          paid: true,
        });
        if (Object.keys(columns).length) await queryOne(manager, q.updateEntry('components', minted.id, columns, this.clock.now()));
        if (input.predObjIds?.length) await setPredObjs(manager, 'component_pred_objs', minted.id, userId, input.predObjIds);
        const component = await this.read(manager, userId, input.dataType, minted.ctId);
        const result = { component, estimatedCostCredits: price, balanceCredits: charge.balanceCredits };
        const resource = { type: 'component', id: minted.ctId };
        await recordOutcome(manager, { charged: price, ledgerEntryId: charge.ledgerEntryId, resource, result });
        return result;
      }),
    );
  }

  async get(userId: number, dataType: DraftDataType, ctId: string): Promise<ComponentDraftView> {
    return this.read(this.db.manager, userId, dataType, ctId);
  }

  list(userId: number, dataType: DraftDataType, page: PageRequest): Promise<PageView<ComponentDraftView>> {
    return pageOf(this.db, q.ownComponents(userId, dataType, page.pageSize, (page.page - 1) * page.pageSize), page, componentDraftView);
  }

  /** Edits a draft of the caller's: a published one is immutable (409), anyone else's draft is not found (404). */
  async update(userId: number, dataType: DraftDataType, ctId: string, fields: ComponentFields): Promise<ComponentDraftView> {
    return transactionRetried(this.db, async (manager) => {
      const row = await queryOne(manager, q.componentDraft(userId, dataType, ctId, true));
      if (!row) throw draftNotFound('component', ctId);
      if (row.status !== 'draft') throw immutable(ctId, row.status);
      if (!row.owned) throw draftNotFound('component', ctId);
      if (fields.units !== undefined) requireUnits(row.data_type, fields.units);
      const units = await unitsText(manager, userId, fields.units);
      const columns = componentColumns({ ...fields, units }, { enums: row.enums, enumDescr: row.enum_descr, dataType: row.data_type });
      await queryOne(manager, q.updateEntry('components', Number(row.id), columns, this.clock.now()));
      if (fields.predObjIds !== undefined) await setPredObjs(manager, 'component_pred_objs', Number(row.id), userId, fields.predObjIds);
      return this.read(manager, userId, dataType, ctId);
    });
  }

  private async read(manager: EntityManager, userId: number, dataType: string, ctId: string): Promise<ComponentDraftView> {
    const row = await queryOne(manager, q.componentDraft(userId, dataType, ctId));
    if (!row) throw draftNotFound('component', ctId);
    return componentDraftView(row);
  }
}

export const immutable = (ctId: string, status: string) =>
  conflict('published_immutable', `${ctId} is ${status}; a published entry cannot be changed (create a new one).`, { ct_id: ctId, status });
