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

/** GraphQL errors carry the REST `error_type` in `extensions.code` (plus the contract's fields); unknown
 * errors are logged with their cause and masked. */
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
        extensions: { code: known.code, status: known.status, ...known.fields },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && CLIENT_CODES.has(code)) return formatted;
    logger.error({ err: original }, 'unhandled GraphQL error');
    return { message: 'Internal server error.', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}
