import { codePointLength, isUnstorable } from '../lib/text';
import { invalid } from './catalog.parser';

/** The field rules every drafts body shares (components, clusters, models, Units, the vocabulary): text, ct_ids,
 * ids, enumerations and predicate-object links, each a 400 naming the field. */

export const MAX_LABEL = 255;
export const MAX_DESCRIPTION = 10_000;
const MAX_ENUMS = 500;
const MAX_ENUM = 255;
export const MAX_REFS = 500;

export type Body = Record<string, unknown>;

export function asBody(value: unknown): Body {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid('body', 'The body must be a JSON object.');
  return value as Body;
}

export const has = (body: Body, field: string) => body[field] !== undefined;

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be text.`);
  const trimmed = value.trim();
  if (isUnstorable(trimmed)) throw invalid(field, `${field} contains characters that cannot be stored.`);
  if (codePointLength(trimmed) > max) throw invalid(field, `${field} must have at most ${max} characters.`);
  return trimmed;
}

export function requiredText(value: unknown, field: string, max: number): string {
  const found = value === undefined || value === null ? '' : text(value, field, max);
  if (!found) throw invalid(field, `${field} is required.`);
  return found;
}

/** "" and null mean none. */
export function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  const found = text(value, field, max);
  return found === '' ? null : found;
}

const CT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export function ctId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !CT_ID.test(value)) throw invalid(field, `${field} must be a ct_id.`);
  return value;
}

export function ctIds(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw invalid(field, `${field} must be a list of ct_ids.`);
  if (value.length > MAX_REFS) throw invalid(field, `${field} may name at most ${MAX_REFS} entries.`);
  return value.map((item, i) => ctId(item, `${field}[${i}]`));
}

export function id(value: unknown, field: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid(field, `${field} must be a positive integer id.`);
  return n;
}

export function booleanField(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false.`);
  return value;
}

/** Characters XML 1.0 cannot carry (an enumerated value is written as is into the XSD). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** `enums`: newline-joined text (what the tools send) or a list; blank lines dropped, duplicates refused. */
export function parseEnums(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(/\r?\n/) : Array.isArray(value) ? value : null;
  if (items === null) throw invalid('enums', 'enums must be newline-joined text or a list of text.');
  const enums = items.map((item, i) => text(item, `enums[${i}]`, MAX_ENUM)).filter((item) => item !== '');
  if (enums.some((item) => CONTROL.test(item))) throw invalid('enums', 'enums may not contain control characters.');
  if (enums.length > MAX_ENUMS) throw invalid('enums', `enums may list at most ${MAX_ENUMS} values.`);
  const duplicate = enums.find((item, i) => enums.indexOf(item) !== i);
  if (duplicate !== undefined) throw invalid('enums', `enums lists "${duplicate}" twice.`);
  return enums;
}

/** `enum_descr`: "value: description" lines (what the tools send) or an object value → description. */
export function parseEnumDescr(value: unknown): Record<string, string> {
  const pairs: Array<[string, unknown]> = [];
  if (typeof value === 'string') {
    for (const line of value.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const colon = line.indexOf(':');
      if (colon <= 0) throw invalid('enum_descr', `enum_descr lines must read "value: description"; got "${line.trim()}".`);
      pairs.push([line.slice(0, colon), line.slice(colon + 1)]);
    }
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) pairs.push(...Object.entries(value));
  else throw invalid('enum_descr', 'enum_descr must be "value: description" lines or an object.');
  if (pairs.length > MAX_ENUMS) throw invalid('enum_descr', `enum_descr may describe at most ${MAX_ENUMS} values.`);
  const described: Record<string, string> = {};
  for (const [key, description] of pairs) described[text(key, 'enum_descr', MAX_ENUM)] = text(description, 'enum_descr', MAX_DESCRIPTION);
  return described;
}

/** `pred_obj`: the ids of predicate-object pairs (numbers or numeric text); replaces the component's set. */
export function parsePredObjIds(value: unknown): number[] {
  if (!Array.isArray(value)) throw invalid('pred_obj', 'pred_obj must be a list of pred-obj ids.');
  if (value.length > MAX_REFS) throw invalid('pred_obj', `pred_obj may name at most ${MAX_REFS} ids.`);
  return [...new Set(value.map((item, i) => id(item, `pred_obj[${i}]`)))];
}

export const projectOf = (body: Body) =>
  body.project === undefined || body.project === null || body.project === '' ? null : ctId(body.project, 'project');
