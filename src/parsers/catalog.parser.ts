import { DATA_TYPES, isDataType, type DataType } from '../domain/model-tree';
import type { CatalogStatus } from '../entities/catalog-entry';
import { badRequest } from '../lib/errors';
import { codePointLength } from '../lib/text';

/** The catalog's query rules, pure: REST query strings and GraphQL arguments both become these typed queries,
 * or today's 400 bodies. */

export const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
const MAX_SEARCH_LENGTH = 200;

const STATUSES: readonly CatalogStatus[] = ['draft', 'published', 'retired'];

/** A list query as it arrives: a query string or GraphQL arguments. */
export interface RawListQuery {
  type?: unknown;
  project?: unknown;
  search?: unknown;
  status?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface ClusterQuery extends PageRequest {
  project: string | null;
  search: string | null;
}

export interface ComponentQuery extends ClusterQuery {
  type: DataType | null;
  status: CatalogStatus | null;
}

export interface ModelQuery {
  search: string | null;
}

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

function parseStatus(value: unknown): CatalogStatus | null {
  const status = filterText(value, 'status');
  if (status === null) return null;
  const known = STATUSES.find((s) => s === status);
  if (!known) throw invalid('status', 'status must be draft, published or retired.');
  return known;
}

function parsePage(raw: RawListQuery): PageRequest {
  return { page: positiveInt(raw.page, 'page', 1), pageSize: positiveInt(raw.pageSize, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

/** Fields are checked in this order, so the first problem named is always the same one. */
export function parseComponentQuery(raw: RawListQuery): ComponentQuery {
  const type = parseDataType(raw.type);
  const project = filterText(raw.project, 'project');
  const search = filterText(raw.search, 'search');
  const status = parseStatus(raw.status);
  return { type, project, search, status, ...parsePage(raw) };
}

export function parseClusterQuery(raw: RawListQuery): ClusterQuery {
  const project = filterText(raw.project, 'project');
  const search = filterText(raw.search, 'search');
  return { project, search, ...parsePage(raw) };
}

export function parseModelQuery(raw: { search?: unknown }): ModelQuery {
  return { search: filterText(raw.search, 'search') };
}

/** `include=bfo` adds the SDC4-BFO mapping to the ontology; nothing else is known. */
export function parseOntologyInclude(value: unknown): boolean {
  if (value !== undefined && value !== 'bfo') {
    throw badRequest('Unknown include value: the only one is "bfo" (adds the SDC4-BFO mapping).', { include: value });
  }
  return value === 'bfo';
}
