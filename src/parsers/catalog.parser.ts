import { DATA_TYPES, isDataType, type DataType } from '../domain/model-tree';
import { CATALOG_STATUSES, type CatalogStatus } from '../entities/catalog-entry';
import { badRequest } from '../lib/errors';
import { codePointLength } from '../lib/text';
import { isContextualSlot, SLOT_COMPONENT_TYPE, type ContextualSlot } from '../packages/contextual-library';

/** The catalog's query rules, pure: REST query strings and GraphQL arguments both become these typed queries,
 * or today's 400 bodies. */

const DEFAULT_PAGE_SIZE = 20;
/** The studio's fixed page of /catalog/components/: clients page until a short page. */
export const COMPONENT_PAGE_SIZE = 50;
/** The one page-size maximum of every studio list (the enrichment scripts and the toolkit ask for 200 at once). */
export const STUDIO_MAX_PAGE_SIZE = 200;
const MAX_SEARCH_LENGTH = 200;

/** A list query as it arrives: a query string or GraphQL arguments. */
export interface RawListQuery {
  type?: unknown;
  project?: unknown;
  search?: unknown;
  status?: unknown;
  page?: unknown;
  pageSize?: unknown;
  scope?: unknown;
  /** `/dmgen/components/`: `true` or `false`, the studio's other name for status published or draft. */
  published?: unknown;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface ClusterQuery extends PageRequest {
  /** A project name or ct_id. */
  project: string | null;
  search: string | null;
  /** Narrow a signed-in caller's reads to their default project (the toolkit's "project filter"). */
  defaultProjectOnly: boolean;
}

/** Which components a `type` names: lowercased data types, or a contextual slot; an unknown name matches none. */
interface TypeFilter {
  dataTypes: string[];
  slot: string | null;
}

export interface ComponentQuery extends ClusterQuery {
  type: TypeFilter | null;
  status: CatalogStatus | null;
}

/** The data types a slot name also matches: its type when only contextual components have it (Audit, Party, …).
 * protocol's XdString and workflow's and acs's XdLink are ordinary data types too, so those slots match only the
 * components made for them (`contextual_slot`). */
function slotDataTypes(slot: ContextualSlot): string[] {
  const type = SLOT_COMPONENT_TYPE[slot];
  return isDataType(type) ? [] : [type.toLowerCase(), `${type.toLowerCase()}type`];
}

export interface ModelQuery {
  search: string | null;
  project: string | null;
  defaultProjectOnly: boolean;
}

const DMGEN_PAGE_SIZE = 10;
const MAX_PROJECT_PAGE = STUDIO_MAX_PAGE_SIZE;

export const invalid = (field: string, message: string) => badRequest(message, { details: { [field]: [message] } });

export function positiveInt(value: unknown, field: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw invalid(field, `${field} must be an integer from 1 to ${max}.`);
  return n;
}

/** Trimmed text, or null when absent or blank; a repeated query parameter (an array) is refused. */
export function filterText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, `${field} must be given once, as text.`);
  const trimmed = value.trim();
  if (codePointLength(trimmed) > MAX_SEARCH_LENGTH) throw invalid(field, `${field} must have at most ${MAX_SEARCH_LENGTH} characters.`);
  return trimmed === '' ? null : trimmed;
}

/** `XdCount` and `XdCountType` both name the reference-model type. */
export function parseDataType(value: unknown, field = 'type'): DataType | null {
  const text = filterText(value, field);
  if (text === null) return null;
  const name = text.endsWith('Type') ? text.slice(0, -4) : text;
  if (!isDataType(name)) throw invalid(field, `${field} must be one of ${DATA_TYPES.join(', ')}.`);
  return name;
}

/** `xdquantity`, `XdQuantityType`, `audit` or `AuditType`: any case. An unknown name is not an error (clients
 * read an empty page as "unused"). `kinds` names other entries a list holds besides the data types. */
function parseTypeFilter(value: unknown, kinds: readonly string[] = []): TypeFilter | null {
  const text = filterText(value, 'type');
  if (text === null) return null;
  const lower = text.toLowerCase();
  const bare = lower.endsWith('type') && lower.length > 4 ? lower.slice(0, -4) : lower;
  if (isContextualSlot(bare)) return { dataTypes: slotDataTypes(bare), slot: bare };
  const known = [...DATA_TYPES, ...kinds].find((t) => t.toLowerCase() === bare);
  return { dataTypes: known ? [known.toLowerCase()] : [], slot: null };
}

function parseScope(value: unknown): boolean {
  const scope = filterText(value, 'scope');
  if (scope !== null && scope !== 'default_project') throw invalid('scope', 'scope must be default_project.');
  return scope === 'default_project';
}

function parseStatus(value: unknown): CatalogStatus | null {
  const status = filterText(value, 'status');
  if (status === null) return null;
  const known = CATALOG_STATUSES.find((s) => s === status);
  if (!known) throw invalid('status', 'status must be draft, published or retired.');
  return known;
}

function parsePage(raw: RawListQuery, defaultSize = DEFAULT_PAGE_SIZE): PageRequest {
  return { page: positiveInt(raw.page, 'page', 1), pageSize: positiveInt(raw.pageSize, 'page_size', defaultSize, STUDIO_MAX_PAGE_SIZE) };
}

/** Fields are checked in this order, so the first problem named is always the same one. */
export function parseComponentQuery(raw: RawListQuery, defaultSize = COMPONENT_PAGE_SIZE, kinds: readonly string[] = []): ComponentQuery {
  const type = parseTypeFilter(raw.type, kinds);
  const project = filterText(raw.project, 'project');
  const search = filterText(raw.search, 'search');
  const status = parseStatus(raw.status);
  const defaultProjectOnly = parseScope(raw.scope);
  return { type, project, search, status, defaultProjectOnly, ...parsePage(raw, defaultSize) };
}

export function parseClusterQuery(raw: RawListQuery): ClusterQuery {
  const project = filterText(raw.project, 'project');
  const search = filterText(raw.search, 'search');
  const defaultProjectOnly = parseScope(raw.scope);
  return { project, search, defaultProjectOnly, ...parsePage(raw) };
}

/** The entries `/dmgen/components/` lists besides components, as its `type` names them (lowercased). */
const STUDIO_ENTRY_KINDS = ['Cluster', 'Units'] as const;

/** Where the studio's `type` is not the reference-model name lowercased: SDCStudio's component table calls
 * XdInterval `interval` (SDCBench badges its search results by that name). */
const STUDIO_TYPE_NAMES: Record<string, string> = { XdInterval: 'interval' };
const STUDIO_TYPE_OF_NAME = new Map(Object.entries(STUDIO_TYPE_NAMES).map(([type, name]) => [name, type]));

/** A `/dmgen/components/` row's `type`: the reference-model name lowercased (`xdstring`, `cluster`, `units`), or
 * the studio's own name where it has one. */
export const studioTypeName = (componentType: string): string => STUDIO_TYPE_NAMES[componentType] ?? componentType.toLowerCase();

/** `/dmgen/components/`: the studio's page_size (default 10), `project` a ct_id, `status` published or draft,
 * `type` also `cluster`, `units` or a studio name such as `interval`. */
export function parseDmgenComponentQuery(raw: RawListQuery): ComponentQuery {
  const studioType = typeof raw.type === 'string' ? STUDIO_TYPE_OF_NAME.get(raw.type.trim().toLowerCase()) : undefined;
  const parsed = parseComponentQuery(studioType ? { ...raw, type: studioType } : raw, DMGEN_PAGE_SIZE, STUDIO_ENTRY_KINDS);
  const published = parsePublished(raw.published);
  if (published === null) return parsed;
  const status: CatalogStatus = published ? 'published' : 'draft';
  if (parsed.status !== null && parsed.status !== status) {
    throw invalid('published', `published=${String(published)} contradicts status=${parsed.status}; give one of them.`);
  }
  return { ...parsed, status };
}

/** `published=true|false` (the FAIR enrichment scripts list `published=false` drafts to edit them). */
function parsePublished(value: unknown): boolean | null {
  const text = filterText(value, 'published');
  if (text === null) return null;
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw invalid('published', 'published must be true or false.');
}

/** `/dmgen/projects/`: page and page_size (the toolkit asks for 200 at once). */
export function parseProjectPage(raw: RawListQuery): PageRequest {
  return { page: positiveInt(raw.page, 'page', 1), pageSize: positiveInt(raw.pageSize, 'page_size', MAX_PROJECT_PAGE, MAX_PROJECT_PAGE) };
}

export function parseModelQuery(raw: { search?: unknown; project?: unknown; scope?: unknown }): ModelQuery {
  return { search: filterText(raw.search, 'search'), project: filterText(raw.project, 'project'), defaultProjectOnly: parseScope(raw.scope) };
}

/** `include=bfo` adds the SDC4-BFO mapping to the ontology; nothing else is known. */
export function parseOntologyInclude(value: unknown): boolean {
  if (value !== undefined && value !== 'bfo') {
    throw badRequest('Unknown include value: the only one is "bfo" (adds the SDC4-BFO mapping).', { include: value });
  }
  return value === 'bfo';
}
