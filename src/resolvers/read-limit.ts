import type { ApolloServerPlugin } from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { Extensions } from 'type-graphql';
import type { Services } from '../container';
import { asDomainError } from '../lib/errors';
import type { Caller } from '../services/auth.service';
import { Requires, type GraphQLContext } from './context';

const PUBLIC_READ = 'publicRead';

/** A public query: open to anonymous callers and counted against the hourly read limit that REST's public catalog
 * reads count against (ANONYMOUS_READS_PER_HOUR, KEYED_READS_PER_HOUR), so switching transport gains nothing. */
export function PublicRead(): MethodDecorator {
  return (target, key, descriptor) => {
    Requires('public')(target, key, descriptor);
    Extensions({ [PUBLIC_READ]: true })(target, key, descriptor);
  };
}

/** The public reads of a query operation: its root fields marked PublicRead, each alias once and root fragments
 * expanded, since every alias runs its read (one read per operation would let 50 aliases count as one).
 * The operation passed validation, so its fragments exist and do not cycle. */
function publicReadsOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): number {
  if (operation.operation !== OperationTypeNode.QUERY) return 0;
  const fields = schema.getQueryType()?.getFields() ?? {};
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const stack: SelectionSetNode[] = [operation.selectionSet];
  let reads = 0;
  while (stack.length) {
    for (const selection of stack.pop()!.selections) {
      if (selection.kind === Kind.FIELD) {
        if (fields[selection.name.value]?.extensions[PUBLIC_READ] === true) reads++;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        stack.push(selection.selectionSet);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) stack.push(fragment);
      }
    }
  }
  return reads;
}

/** Counts an operation's public reads in the caller's bucket (per user with credentials, per address without);
 * past the limit the whole operation is refused before it runs, as a GraphQL error with HTTP 429 and Retry-After.
 * The count is a database write, so an outage refuses the operation too, with the 503 every resolver gives. */
async function countPublicReads(services: Services, caller: Caller | null, address: string, reads: number) {
  try {
    return await services.readLimits.check(caller ? { userId: caller.user.id } : null, address, reads);
  } catch (error) {
    const known = asDomainError(error);
    if (!known) throw error;
    const headers = known.code === 'rate_limited' ? new Map([['Retry-After', String(known.fields.retry_after_seconds)]]) : undefined;
    throw new GraphQLError(known.message, { originalError: known, extensions: { http: { status: known.status, ...(headers && { headers }) } } });
  }
}

/** The read limit over HTTP, with REST's X-RateLimit-Limit and X-RateLimit-Remaining on an operation it counted. */
export const publicReadLimit: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, schema, document, operation, response }) {
        const reads = operation ? publicReadsOf(schema, document, operation) : 0;
        if (reads === 0) return;
        const left = await countPublicReads(contextValue.services, contextValue.caller, contextValue.req?.ip ?? 'unknown', reads);
        response.http.headers.set('X-RateLimit-Limit', String(left.limit));
        response.http.headers.set('X-RateLimit-Remaining', String(left.remaining));
      },
    };
  },
};

/** The read limit over WebSocket (graphql-ws `onSubscribe`): an operation past it is answered with the 429 error
 * instead of running; the caller is resolved only for an operation that reads something public. */
export async function socketReadLimit(
  services: Services,
  args: ExecutionArgs,
  callerOf: () => Promise<Caller | null>,
  address: string,
): Promise<ExecutionArgs | GraphQLError[]> {
  const operation = getOperationAST(args.document, args.operationName);
  const reads = operation ? publicReadsOf(args.schema, args.document, operation) : 0;
  if (reads === 0) return args;
  try {
    await countPublicReads(services, await callerOf(), address, reads);
    return args;
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
}
