import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';

/** A subscription sent over HTTP (curl, a GraphiQL without WebSocket) is a client mistake, answered 400 with the
 * way to do it, instead of an execution failure masked as an internal error. */
export const subscriptionsOverHttpRefused: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return;
        throw new GraphQLError(
          'Subscriptions are served over WebSocket only: connect to /graphql with the graphql-ws protocol (graphql-transport-ws).',
          {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          },
        );
      },
    };
  },
};
