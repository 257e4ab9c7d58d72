import { DomainError } from '../lib/errors';

/** What a validation-as-a-service request asks for. */
export interface VaasRequest {
  /** strict (`report` is its older name) reports; recover applies EV correction. */
  mode: 'strict' | 'recover';
  /** A ZIP of the instance, schema and renderings stored and offered at X-Package-Url. */
  package: boolean;
  /** Sign the (recovered) instance when it is valid. */
  sign: boolean;
}

const invalid = (name: string, message: string, value: unknown) =>
  new DomainError(400, 'invalid_request', message, { details: { [name]: [message] }, [name]: value });

const MODES: Record<string, VaasRequest['mode']> = { strict: 'strict', report: 'strict', recover: 'recover' };

/** `true|false` (also 1/0, case-insensitive); absent is `fallback`. */
function parseFlag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const text = typeof value === 'string' ? value.toLowerCase() : value;
  if (text === 'true' || text === '1' || text === true) return true;
  if (text === 'false' || text === '0' || text === false) return false;
  throw invalid(name, `${name} must be true or false.`, value);
}

/** `POST /api/v1/vaas/validate/?mode=strict|recover|report&package=true|false` (mode defaults to strict). */
export function parseValidateQuery(query: Record<string, unknown>): VaasRequest {
  const raw = query.mode;
  if (raw !== undefined && raw !== '' && typeof raw !== 'string') throw invalid('mode', 'mode must be strict, recover or report.', raw);
  const mode = raw === undefined || raw === '' ? 'strict' : MODES[raw.toLowerCase()];
  if (!mode) throw invalid('mode', 'mode must be strict, recover or report.', raw);
  return { mode, package: parseFlag('package', query.package, false), sign: false };
}

/** `POST /api/v1/vaas/validate/sign/?recover=true|false&package=true|false` (recover defaults to true, as the
 * toolkit's does). */
export function parseSignQuery(query: Record<string, unknown>): VaasRequest {
  return { mode: parseFlag('recover', query.recover, true) ? 'recover' : 'strict', package: parseFlag('package', query.package, false), sign: true };
}

/** The body must be XML: `application/xml`, `text/xml` or any `+xml` type; 415 otherwise. */
export function requireXmlContentType(contentType: string | undefined): void {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return;
  throw new DomainError(415, 'unsupported_media_type', 'Send the instance as raw XML with Content-Type: application/xml (or text/xml).', {
    content_type: contentType ?? null,
  });
}

/** A package id as the URL names it (cuid2). */
export function parsePackageId(id: string): string {
  if (!/^[a-z0-9]{10,32}$/.test(id))
    throw new DomainError(404, 'not_found', 'Package not found (packages expire; validate again with package=true).');
  return id;
}
