import type { Requirement } from '../../../src/services/auth.service';
import type { CallerSpec } from './callers';

/**
 * The expected answer to an operation, written independently of the code under test: from an operation's
 * declared requirement and a caller's description only. Error texts are the contract's, spelled out here.
 */

/** What a cell expects; only the parts given are compared (`body` exactly, asymmetric matchers allowed). */
export interface Expected {
  status: number;
  body?: unknown;
  contentType?: string;
  location?: string;
  /** A substring of a non-JSON (HTML) answer. */
  text?: string;
}

/** An Interface A refusal: its status and its `{error, error_type, ...fields}` body. */
export interface Refusal {
  status: number;
  body: { error: string; error_type: string; [field: string]: unknown };
}

/** The spend limit of the "key at its spend limit" caller, and what it has spent. */
export const SPEND_LIMIT_CREDITS = 500;

const refusal = (status: number, error_type: string, error: string, fields: Record<string, unknown> = {}): Refusal => ({
  status,
  body: { error, error_type, ...fields },
});

const NOT_AUTHENTICATED = refusal(401, 'not_authenticated', 'Authentication credentials were not provided or are not valid.');
const CSRF_FAILED = refusal(403, 'csrf_failed', 'CSRF token missing or incorrect: send the csrftoken cookie value in X-CSRFToken.');
const SESSION_REQUIRED = refusal(403, 'session_required', 'This action needs a signed-in session; API keys cannot perform it.');
const PERMISSION_DENIED = refusal(403, 'permission_denied', 'You do not have permission to perform this action.');
const keyScope = (scope: string, scopes: string[]) => refusal(403, 'key_scope', `This API key lacks the "${scope}" scope.`, { scope, scopes });

export type StudioTransport = 'rest' | 'graphql' | 'websocket';

/**
 * Interface A's rule. A presented key that is not valid is a 401 before anything else over REST (authentication
 * runs first, even on public routes); GraphQL keeps the failure for fields that need a caller, so its public
 * `login` still answers. CSRF applies to unsafe REST requests of a session; then staff, session-only and scopes.
 */
export function studioRefusal(requirement: Requirement, caller: CallerSpec, how: { transport: StudioTransport; unsafe: boolean }): Refusal | null {
  const credential = caller.studio;
  if (credential.kind === 'bad-key' && (how.transport === 'rest' || requirement !== 'public')) return NOT_AUTHENTICATED;
  if (requirement === 'public') return null;
  if (credential.kind !== 'key' && credential.kind !== 'session') return NOT_AUTHENTICATED;
  if (credential.kind === 'session' && how.transport === 'rest' && how.unsafe && !credential.csrf) return CSRF_FAILED;
  if (requirement === 'staff') return caller.who === 'staff' ? null : PERMISSION_DENIED;
  if (requirement === 'session') return credential.kind === 'session' ? null : SESSION_REQUIRED;
  if (credential.kind === 'key' && !credential.scopes.includes(requirement)) return keyScope(requirement, credential.scopes);
  return null;
}

/** An operation that charges `credits`: a key needs `spend`, and a key at its limit is refused before building. */
export function chargeRefusal(caller: CallerSpec, credits: number): Refusal | null {
  const credential = caller.studio;
  if (credential.kind !== 'key') return null;
  if (!credential.scopes.includes('spend')) return keyScope('spend', credential.scopes);
  if (credential.atSpendLimit) {
    return refusal(
      403,
      'key_spend_limit',
      `This API key's spend limit is ${SPEND_LIMIT_CREDITS} credits; it has spent ${SPEND_LIMIT_CREDITS} and this needs ${credits}.`,
      { spend_limit_credits: SPEND_LIMIT_CREDITS, spent_credits: SPEND_LIMIT_CREDITS, estimated_cost_credits: credits },
    );
  }
  return null;
}

/** A WebSocket connection is accepted only with a caller (a valid key in the init payload or a session cookie). */
export const connectionRefused = (caller: CallerSpec): boolean => caller.studio.kind !== 'key' && caller.studio.kind !== 'session';

const APP_UNAUTHENTICATED_MESSAGE = 'Authentication failed: send a valid, active API key in the X-API-Key header.';

/** Interface B: every endpoint needs an active X-API-Key; anything else is the general-format 401. */
export function appRefusal(caller: CallerSpec): Expected | null {
  if (caller.appKey) return null;
  return {
    status: 401,
    body: {
      success: false,
      error: APP_UNAUTHENTICATED_MESSAGE,
      errors: { 'X-API-Key': [APP_UNAUTHENTICATED_MESSAGE] },
      error_code: 'AUTHENTICATION_ERROR',
    },
  };
}

export const APP_GRAPHQL_UNAUTHENTICATED = {
  message: APP_UNAUTHENTICATED_MESSAGE,
  extensions: { code: 'AUTHENTICATION_ERROR', status: 401, errors: { 'X-API-Key': [APP_UNAUTHENTICATED_MESSAGE] } },
};

/** The admin pages: a staff session (cookie), with the session's CSRF token in every form; keys count for nothing. */
export function adminRefusal(caller: CallerSpec, method: string, path: string): Expected | null {
  const credential = caller.studio;
  if (credential.kind !== 'session') {
    return method === 'GET'
      ? { status: 303, location: `/admin/login/?next=${encodeURIComponent(path)}` }
      : { status: 403, text: 'Your session ended. Sign in again.' };
  }
  if (caller.who !== 'staff') return { status: 403, text: 'Staff only.' };
  if (method !== 'GET' && !credential.csrf) return { status: 403, text: 'CSRF check failed: reload the page and try again.' };
  return null;
}

/** GraphQL over HTTP for a request a cross-site page could send (simple content type, no preflight header). */
export const GRAPHQL_SIMPLE_REQUEST_REFUSED: Expected = {
  status: 400,
  body: {
    errors: [
      {
        message:
          "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header " +
          '(with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value ' +
          'for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n',
        extensions: { code: 'BAD_REQUEST' },
      },
    ],
  },
};
