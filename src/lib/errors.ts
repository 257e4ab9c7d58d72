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

export const unauthenticated = () =>
  new DomainError(401, 'not_authenticated', 'Authentication credentials were not provided or are not valid.');

export const forbidden = (message = 'You do not have permission to perform this action.') =>
  new DomainError(403, 'permission_denied', message);

export const notFound = (what = 'Resource') => new DomainError(404, 'not_found', `${what} not found.`);

export const badRequest = (message: string, fields: Record<string, unknown> = {}) =>
  new DomainError(400, 'invalid_request', message, fields);

export const conflict = (code: string, message: string, fields: Record<string, unknown> = {}) =>
  new DomainError(409, code, message, fields);

export const keyScope = (scope: string, scopes: string[]) =>
  new DomainError(403, 'key_scope', `This API key lacks the "${scope}" scope.`, { scope, scopes });

export const sessionRequired = () =>
  new DomainError(403, 'session_required', 'This action needs a signed-in session; API keys cannot perform it.');

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
} as const;

export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}
