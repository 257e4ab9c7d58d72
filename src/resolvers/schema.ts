import type { GraphQLSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchema, type AuthChecker, type NonEmptyArray } from 'type-graphql';
import { CHARGES } from '../money';
import type { Requirement } from '../services/auth.service';
import { APP_KEY } from '../services/app-keys.service';
import { AppResolver, appCallerOf } from './app.resolver';
import { ArtefactsResolver } from './artefacts.resolver';
import { AuthResolver } from './auth.resolver';
import { CatalogResolver } from './catalog.resolver';
import { DraftsResolver } from './drafts.resolver';
import type { GraphQLContext } from './context';
import { JobsResolver } from './jobs.resolver';
import { AssemblyResolver } from './assembly.resolver';
import { GenerationResolver } from './generation.resolver';
import { ProjectsResolver } from './projects.resolver';
import { UnitsResolver } from './units.resolver';
import { VaasResolver } from './vaas.resolver';
import { VslResolver } from './vsl.resolver';

export const RESOLVERS: NonEmptyArray<new () => object> = [
  AuthResolver,
  CatalogResolver,
  JobsResolver,
  AssemblyResolver,
  GenerationResolver,
  ProjectsResolver,
  AppResolver,
  ArtefactsResolver,
  DraftsResolver,
  UnitsResolver,
  VaasResolver,
  VslResolver,
];

/** Same rule as REST: the services' authorize(); it throws the typed error the client sees. */
const authChecker: AuthChecker<GraphQLContext> = ({ context }, requirements) => {
  if (requirements[0] === APP_KEY) return appCallerOf(context).then(() => true);
  if (context.authError && requirements[0] !== 'public') throw context.authError;
  context.services.auth.authorize(context.caller, requirements[0] as Requirement);
  if (requirements[1] === CHARGES) context.services.auth.authorize(context.caller, 'spend');
  return true;
};

export async function buildGatewaySchema(): Promise<GraphQLSchema> {
  // Subscriptions stream from the job event hub (custom `subscribe`); type-graphql still wants a PubSub.
  return buildSchema({ resolvers: RESOLVERS, authChecker, validate: false, pubSub: createPubSub() });
}
