/** Typed domain errors: a stable code and an HTTP status, mapped once per transport (REST-compat bodies, GraphQL
 * `extensions.code`). `fields` are extra top-level body fields the contract names (scope, balance_credits, …). */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export const unauthenticated = () => new DomainError(401, 'not_authenticated', 'Authentication credentials were not provided or are not valid.');

export const forbidden = (message = 'You do not have permission to perform this action.') => new DomainError(403, 'permission_denied', message);

export const notFound = (what = 'Resource') => new DomainError(404, 'not_found', `${what} not found.`);

export const badRequest = (message: string, fields: Record<string, unknown> = {}) => new DomainError(400, 'invalid_request', message, fields);

export const conflict = (code: string, message: string, fields: Record<string, unknown> = {}) => new DomainError(409, code, message, fields);

export const keyScope = (scope: string, scopes: string[]) =>
  new DomainError(403, 'key_scope', `This API key lacks the "${scope}" scope.`, { scope, scopes });

export const sessionRequired = () => new DomainError(403, 'session_required', 'This action needs a signed-in session; API keys cannot perform it.');

export const csrfFailed = () =>
  new DomainError(403, 'csrf_failed', 'CSRF token missing or incorrect: send the csrftoken cookie value in X-CSRFToken.');

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new DomainError(429, 'too_many_attempts', 'Too many failed sign-in attempts; try again later.', {
    retry_after_seconds: retryAfterSeconds,
  });

/** Postgres SQLSTATEs the services react to. */
export const PG = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  adminShutdown: '57P01',
  crashShutdown: '57P02',
  cannotConnectNow: '57P03',
  tooManyConnections: '53300',
} as const;

/** SQLSTATEs and socket errors meaning the database cannot be reached right now, not that the request is wrong. */
const UNREACHABLE_SQLSTATES = new Set<string>([PG.adminShutdown, PG.crashShutdown, PG.cannotConnectNow, PG.tooManyConnections]);
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
// node-postgres and pg-pool say "connection lost" and "pool timed out" in messages only.
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** True when `error` (or a cause it wraps) says the database is down, restarting or out of connections. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    // TypeORM releases a transaction's query runner when its connection fails; the next query throws this.
    if (name === 'QueryRunnerAlreadyReleasedError') return true;
    if (typeof code === 'string' && (UNREACHABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || UNREACHABLE_SOCKET_CODES.has(code)))
      return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A database outage as a domain error: 503, so clients retry instead of reading a masked 500. */
const databaseUnavailable = (cause: unknown) =>
  new DomainError(503, 'database_unavailable', 'The database is unavailable right now; try again shortly.', {}, { cause });

/** A request its transport refused before any handler read it (body-parser, graphql-upload, the router's URL
 * decoding): `reason` says why, `status` and `message` are the library's. */
export interface RequestFault {
  reason: 'too_large' | 'encoding' | 'url' | 'body';
  status: number;
  message: string;
}

/** Every error a transport can meet, typed once: a domain error (a database outage becomes one here, and only
 * here), a request fault, or an unknown error to log and mask. Each contract shape has its own renderer. */
export type NormalisedError = { kind: 'domain'; error: DomainError } | { kind: 'request'; fault: RequestFault } | { kind: 'unknown'; error: unknown };

export function normaliseError(error: unknown): NormalisedError {
  if (isDatabaseUnavailable(error))
    return { kind: 'domain', error: error instanceof DomainError && error.status === 503 ? error : databaseUnavailable(error) };
  if (error instanceof DomainError) return { kind: 'domain', error };
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return { kind: 'unknown', error };
  const message = (error as Error).message;
  if (status === 413) return { kind: 'request', fault: { reason: 'too_large', status, message } };
  if (status === 415) return { kind: 'request', fault: { reason: 'encoding', status, message } };
  return { kind: 'request', fault: { reason: error instanceof URIError && status === 400 ? 'url' : 'body', status, message } };
}

/** The error as a domain error when it is one (a database outage included), else null. */
export function asDomainError(error: unknown): DomainError | null {
  const normalised = normaliseError(error);
  return normalised.kind === 'domain' ? normalised.error : null;
}

export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}
