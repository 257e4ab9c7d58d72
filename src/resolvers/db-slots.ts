import { GraphQLObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context';

/**
 * Root Query and Mutation fields of one operation run at most GRAPHQL_MAX_DB_CONNECTIONS at a time (the
 * context's `dbSlots`), so thousands of aliases queue inside their own request instead of taking every pool
 * connection from other callers.
 */
export function limitRootFieldConcurrency(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!(root instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(root.getFields())) {
      const resolve = field.resolve as GraphQLFieldResolver<unknown, GraphQLContext> | undefined;
      if (!resolve) continue;
      field.resolve = (source, args, context: GraphQLContext, info) =>
        context.dbSlots ? context.dbSlots.run(() => resolve(source, args, context, info)) : resolve(source, args, context, info);
    }
  }
  return schema;
}
