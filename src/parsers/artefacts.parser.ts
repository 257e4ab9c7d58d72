import { badRequest, notFound } from '../lib/errors';

/** The inputs of the artefact routes, pure: `/dmlib/` file names, schema versions, content negotiation. */

export interface DmlibFile {
  dmCtId: string;
  kind: 'xsd' | 'versions';
}

const DMLIB_FILE = /^dm-([A-Za-z0-9_.-]+?)\.(xsd|versions\.json)$/;

/** `dm-<ct_id>.xsd` or `dm-<ct_id>.versions.json`; any other name is not there. */
export function parseDmlibFile(file: string): DmlibFile {
  const match = DMLIB_FILE.exec(file);
  if (!match) throw notFound('Schema');
  return { dmCtId: match[1], kind: match[2] === 'xsd' ? 'xsd' : 'versions' };
}

/** `?version=<sha256>` names an archived version; absent, the current one. */
export function parseSchemaVersion(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value)) throw badRequest('version must be a schema sha256 (64 hex digits).');
  return value;
}

/** True when the client asks for JSON (`Accept: application/json`) rather than the XML text. */
export function wantsJson(accept: string | undefined): boolean {
  return /\bapplication\/json\b/i.test(accept ?? '');
}

/** True when `If-None-Match` names `etag` (or is `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
