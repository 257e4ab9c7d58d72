import type { GraphQLSchema } from 'graphql';
import { buildSchema, type AuthChecker, type NonEmptyArray } from 'type-graphql';
import type { Requirement } from '../services/auth.service';
import { AuthResolver } from './auth.resolver';
import type { GraphQLContext } from './context';
import { JobsResolver } from './jobs.resolver';

export const RESOLVERS: NonEmptyArray<Function> = [AuthResolver, JobsResolver];

/** Same rule as REST: the services' authorize(); it throws the typed error the client sees. */
const authChecker: AuthChecker<GraphQLContext> = ({ context }, requirements) => {
  if (context.authError && requirements[0] !== 'public') throw context.authError;
  context.services.auth.authorize(context.caller, requirements[0] as Requirement);
  return true;
};

export async function buildGatewaySchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: RESOLVERS, authChecker, validate: false });
}
