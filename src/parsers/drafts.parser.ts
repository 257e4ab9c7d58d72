import type { DataType } from '../domain/model-tree';
import { invalid, positiveInt, STUDIO_MAX_PAGE_SIZE, type PageRequest } from './catalog.parser';
import {
  asBody,
  booleanField,
  ctId,
  ctIds,
  has,
  id,
  MAX_DESCRIPTION,
  MAX_LABEL,
  MAX_REFS,
  optionalText,
  parseEnumDescr,
  parseEnums,
  parsePredObjIds,
  projectOf,
  requiredText,
  type Body,
} from './drafts-fields';

/** The drafts API of modeling tools (`/dmgen/xd-*`, `/clusters/`, `/dms/`; the vocabulary and Units have parsers of
 * their own), pure: JSON bodies and GraphQL inputs become these typed values, or a 400 naming the field. */

/** The REST slug of each component type the drafts API creates (`../shared/spec/clients.md`). */
export const COMPONENT_SLUGS = {
  'xd-strings': 'XdString',
  'xd-booleans': 'XdBoolean',
  'xd-tokens': 'XdToken',
  'xd-links': 'XdLink',
  'xd-files': 'XdFile',
  'xd-counts': 'XdCount',
  'xd-quantities': 'XdQuantity',
  'xd-floats': 'XdFloat',
  'xd-doubles': 'XdDouble',
  'xd-ordinals': 'XdOrdinal',
  'xd-temporals': 'XdTemporal',
} as const satisfies Record<string, DataType>;

export type ComponentSlug = keyof typeof COMPONENT_SLUGS;
export type DraftDataType = (typeof COMPONENT_SLUGS)[ComponentSlug];
export const DRAFT_DATA_TYPES = Object.values(COMPONENT_SLUGS) as DraftDataType[];

/** The parts of a date and time an XdTemporal may allow, each the `allow_<part>` field of its body. */
export const TEMPORAL_PARTS = ['date', 'time', 'datetime', 'duration', 'year', 'year_month', 'month', 'month_day', 'day'] as const;
export type TemporalPart = (typeof TEMPORAL_PARTS)[number];

/** Type-specific fields, stored as they are typed here. */
export interface ComponentDetails {
  /** XdTemporal: the parts allowed; empty means all. */
  allow?: TemporalPart[];
  /** ct_ids of reference ranges the tool names (kept with the component; not yet emitted in the XSD). */
  referenceRanges?: string[];
}

export interface ComponentFields {
  label?: string;
  description?: string | null;
  units?: string | null;
  enums?: string[];
  enumDescr?: Record<string, string>;
  predObjIds?: number[];
  details?: ComponentDetails;
}

export interface NewComponentDraft extends ComponentFields {
  dataType: DraftDataType;
  label: string;
  projectCtId: string | null;
}

/** The fields every draft entry but a model edits. */
export interface EntryFields {
  label?: string;
  description?: string | null;
  predObjIds?: number[];
}

export type ClusterFields = EntryFields;

/** A cluster's children in the order the body names them: components (with the type the field named, or null
 * for the generic `components`) and clusters. */
type ClusterChildDraft = { kind: 'component'; ctId: string; dataType: DraftDataType | null } | { kind: 'cluster'; ctId: string };

export interface NewClusterDraft extends ClusterFields {
  label: string;
  projectCtId: string | null;
  children: ClusterChildDraft[];
}

/** Dublin Core fields of a model beside its title and description. */
export interface DublinCore {
  subject?: string;
  publisher?: string;
  source?: string;
  rights?: string;
  language?: string;
}

export interface ModelFields {
  title?: string;
  description?: string | null;
  dublinCore?: DublinCore;
}

export interface NewModelDraft extends ModelFields {
  title: string;
  projectCtId: string | null;
  /** The root cluster by ct_id, or by the numeric `id` its create answered (what the desktop tool sends). */
  rootCluster: string | number;
}

function parseDetails(body: Body, dataType: DraftDataType | null): ComponentDetails | undefined {
  const details: ComponentDetails = {};
  const allowFields = TEMPORAL_PARTS.filter((part) => has(body, `allow_${part}`));
  if (allowFields.length) {
    if (dataType !== null && dataType !== 'XdTemporal') throw invalid(`allow_${allowFields[0]}`, 'allow_* fields belong to xd-temporals.');
    details.allow = allowFields.filter((part) => booleanField(body[`allow_${part}`], `allow_${part}`));
    if (!details.allow.length) throw invalid(`allow_${allowFields[0]}`, 'An XdTemporal must allow at least one part.');
  }
  if (has(body, 'reference_ranges') && body.reference_ranges !== null) details.referenceRanges = ctIds(body.reference_ranges, 'reference_ranges');
  return Object.keys(details).length ? details : undefined;
}

/** The editable fields of a component a body carries (a PATCH sends any of them). `dataType` is null on PATCH,
 * where the stored type decides. */
export function parseComponentFields(raw: unknown, dataType: DraftDataType | null): ComponentFields {
  const body = asBody(raw);
  const fields: ComponentFields = {};
  if (has(body, 'label')) fields.label = requiredText(body.label, 'label', MAX_LABEL);
  if (has(body, 'description')) fields.description = optionalText(body.description, 'description', MAX_DESCRIPTION);
  if (has(body, 'units')) fields.units = optionalText(body.units, 'units', MAX_LABEL);
  if (has(body, 'enums')) fields.enums = body.enums === null ? [] : parseEnums(body.enums);
  if (has(body, 'enum_descr')) fields.enumDescr = body.enum_descr === null ? {} : parseEnumDescr(body.enum_descr);
  if (has(body, 'pred_obj')) fields.predObjIds = body.pred_obj === null ? [] : parsePredObjIds(body.pred_obj);
  const details = parseDetails(body, dataType);
  if (details) fields.details = details;
  return fields;
}

export function parseNewComponent(slug: string, raw: unknown): NewComponentDraft {
  return newComponentOf(parseComponentSlug(slug), raw);
}

/** GraphQL's form: the type named in the input rather than by the path. */
export function parseNewComponentOfType(dataType: unknown, raw: unknown): NewComponentDraft {
  return newComponentOf(parseDraftDataType(dataType), raw);
}

/** Number drafts carry Units, as the studio requires (clients.md). */
const NEEDS_UNITS: readonly string[] = ['XdCount', 'XdQuantity', 'XdFloat', 'XdDouble'];

/** A number draft (count, quantity, float, double) without Units is refused, naming `units`. */
export function requireUnits(dataType: string, units: string | null | undefined): void {
  if (NEEDS_UNITS.includes(dataType) && !units) {
    throw invalid('units', `An ${dataType} needs units: a Units ct_id from GET /api/v1/dmgen/units/ (or the units text).`);
  }
}

function newComponentOf(dataType: DraftDataType, raw: unknown): NewComponentDraft {
  const body = asBody(raw);
  const fields = parseComponentFields(body, dataType);
  requireUnits(dataType, fields.units);
  if (has(body, 'public') && body.public !== null) booleanField(body.public, 'public');
  return { ...fields, dataType, label: requiredText(body.label, 'label', MAX_LABEL), projectCtId: projectOf(body) };
}

const TYPE_FIELDS = new Map<string, DraftDataType>(DRAFT_DATA_TYPES.map((t) => [t.toLowerCase(), t]));

/** label, description and pred_obj: what a cluster's (or a Units') body may carry. */
export function parseEntryFields(raw: unknown): EntryFields {
  const body = asBody(raw);
  const fields: EntryFields = {};
  if (has(body, 'label')) fields.label = requiredText(body.label, 'label', MAX_LABEL);
  if (has(body, 'description')) fields.description = optionalText(body.description, 'description', MAX_DESCRIPTION);
  if (has(body, 'pred_obj')) fields.predObjIds = body.pred_obj === null ? [] : parsePredObjIds(body.pred_obj);
  return fields;
}

/** @alias A cluster's own fields are an entry's. */
export const parseClusterFields = parseEntryFields;

/** Children come from the type fields (`xdstring: [...]`, …), `components` and `clusters`, in body order; each
 * ct_id at most once, as a tree holds each child once (a repeated child would multiply every view of the model). */
export function parseNewCluster(raw: unknown): NewClusterDraft {
  const body = asBody(raw);
  const children: ClusterChildDraft[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (field === 'clusters') children.push(...ctIds(value, field).map((c) => ({ kind: 'cluster' as const, ctId: c })));
    else if (field === 'components') children.push(...ctIds(value, field).map((c) => ({ kind: 'component' as const, ctId: c, dataType: null })));
    else if (TYPE_FIELDS.has(field)) {
      const dataType = TYPE_FIELDS.get(field)!;
      children.push(...ctIds(value, field).map((c) => ({ kind: 'component' as const, ctId: c, dataType })));
    }
  }
  if (children.length > MAX_REFS) throw invalid('clusters', `A cluster may hold at most ${MAX_REFS} children.`);
  const seen = new Set<string>();
  for (const child of children) {
    const field = child.kind === 'cluster' ? 'clusters' : (child.dataType?.toLowerCase() ?? 'components');
    if (seen.has(child.ctId)) throw invalid(field, `${child.ctId} is listed more than once; a cluster holds each child once.`);
    seen.add(child.ctId);
  }
  return { ...parseClusterFields(body), label: requiredText(body.label, 'label', MAX_LABEL), projectCtId: projectOf(body), children };
}

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export function parseModelFields(raw: unknown): ModelFields {
  const body = asBody(raw);
  const fields: ModelFields = {};
  if (has(body, 'title')) fields.title = requiredText(body.title, 'title', MAX_LABEL);
  if (has(body, 'description')) fields.description = optionalText(body.description, 'description', MAX_DESCRIPTION);
  const dublinCore: DublinCore = {};
  for (const [field, key] of [
    ['dc_subject', 'subject'],
    ['publisher', 'publisher'],
    ['source', 'source'],
    ['rights', 'rights'],
  ] as const) {
    const value = has(body, field) ? optionalText(body[field], field, MAX_LABEL) : null;
    if (value !== null) dublinCore[key] = value;
  }
  const language = has(body, 'language') ? optionalText(body.language, 'language', 35) : null;
  if (language !== null) {
    if (!LANGUAGE.test(language)) throw invalid('language', 'language must be a BCP 47 tag such as en-US.');
    dublinCore.language = language;
  }
  if (Object.keys(dublinCore).length) fields.dublinCore = dublinCore;
  return fields;
}

/** `data` names the root cluster by ct_id or by its numeric id. */
export function parseNewModel(raw: unknown): NewModelDraft {
  const body = asBody(raw);
  return {
    ...parseModelFields(body),
    title: requiredText(body.title, 'title', MAX_LABEL),
    projectCtId: projectOf(body),
    rootCluster: typeof body.data === 'number' ? id(body.data, 'data') : ctId(body.data, 'data'),
  };
}

const DRAFT_PAGE_SIZE = 50;
const MAX_DRAFT_PAGE = STUDIO_MAX_PAGE_SIZE;

/** The drafts lists: `page` and `page_size` (the enrichment scripts ask for 200 at once). */
export function parseDraftPage(raw: { page?: unknown; pageSize?: unknown }): PageRequest {
  return { page: positiveInt(raw.page, 'page', 1), pageSize: positiveInt(raw.pageSize, 'page_size', DRAFT_PAGE_SIZE, MAX_DRAFT_PAGE) };
}

export function parseComponentSlug(slug: string): DraftDataType {
  const dataType = COMPONENT_SLUGS[slug as ComponentSlug];
  if (!dataType) throw invalid('type', `Unknown component type "${slug}".`);
  return dataType;
}

/** A component type as GraphQL names it: `XdString`, `xdstring` or the REST slug `xd-strings`. */
export function parseDraftDataType(value: unknown): DraftDataType {
  const name = typeof value === 'string' ? value.trim() : '';
  const found = DRAFT_DATA_TYPES.find((t) => t.toLowerCase() === name.toLowerCase()) ?? COMPONENT_SLUGS[name as ComponentSlug];
  if (!found) throw invalid('dataType', `dataType must be one of ${DRAFT_DATA_TYPES.join(', ')}.`);
  return found;
}
