import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { asDomainError } from '../lib/errors';
import type { Logger } from '../lib/logger';

const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const camelCase = (key: string) => (SNAKE_CASE.test(key) ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key);

/** A plain object of any realm (fields of an error raised in a worker thread come back as another realm's objects). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
};

/** An error's fields as GraphQL names things: snake_case keys camelCased at any depth; other keys (paths, header
 * names such as `X-API-Key`) and every value stay as they are. */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camelCase(key), camelKeys(inner)]));
}

/** `extensions` of a domain error: `code` is the REST `error_type`, `status` the HTTP status; the other fields
 * camelCased, a field named `status` (a key's state) renamed `state` so the HTTP status keeps its name. */
export function errorExtensions(error: { code: string; status: number; fields: Record<string, unknown> }): Record<string, unknown> {
  const { status: state, code: _code, ...fields } = error.fields;
  return { code: error.code, status: error.status, ...(camelKeys(fields) as object), ...(state === undefined ? {} : { state }) };
}

/** GraphQL errors carry the REST `error_type` in `extensions.code`, the HTTP status in `extensions.status` and the
 * contract's fields camelCased; unknown errors are logged with their cause and masked. */
export function formatGraphQLError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    let original = unwrapResolverError(error);
    // graphql-ws hands over the GraphQLError itself; its cause sits in originalError.
    while (original instanceof GraphQLError && original.originalError) original = original.originalError;
    const known = asDomainError(original);
    if (known) {
      return {
        message: known.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: errorExtensions(known),
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && CLIENT_CODES.has(code)) return formatted;
    logger.error({ err: original }, 'unhandled GraphQL error');
    return { message: 'Internal server error.', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}
