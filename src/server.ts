import http from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { getOperationAST, GraphQLError, OperationTypeNode, type GraphQLSchema } from 'graphql';
import { graphqlUploadExpress } from 'graphql-upload-ts';
import type { Services } from './container';
import { createBaseApp, listen } from './http/base-app';
import { graphiqlRouter } from './http/graphiql';
import { subscriptionsOverHttpRefused } from './http/subscription-over-http';
import { graphqlRequestGuard, graphqlTransportErrors } from './resolvers/graphql-guards';
import { strictUtf8 } from './http/json-body';
import { loopTurn, needsTurn } from './http/loop-turns';
import { asDomainError, DomainError } from './lib/errors';
import { applyHeapGrowth } from './lib/heap-growth';
import type { GraphQLContext } from './resolvers/context';
import { limitRootFieldConcurrency } from './resolvers/db-slots';
import { Semaphore } from './lib/semaphore';
import { callerBudgetsOf, callerIdOf, limitConcurrency, presentedCredential, type CallerBudgets } from './http/concurrency';
import { buildAdminRouter } from './rest-compat/admin/admin.routes';
import { accountPages } from './account';
import { formatGraphQLError } from './resolvers/errors';
import { guardedSubscribe, onlySubscriptions, queryLimitsRule, type QueryLimits, type SchemaExposure } from './resolvers/limits';
import { createLoaders } from './resolvers/loaders';
import { publicReadLimit, socketReadLimit } from './resolvers/read-limit';
import { crossSiteRefused, originAllowed, serveGraphqlSockets, socketCredentials, TOO_MANY, type SocketExtra } from './http/graphql-socket';
import { OpenSockets } from './http/open-sockets';
import { buildGatewaySchema } from './resolvers/schema';
import { storableTextRule } from './resolvers/storable-text';
import { APP_API_ROUTES, ROUTES } from './rest-compat/routes';
import { openApiRouter } from './openapi/router';
import { landingRouter } from './landing/landing';
import { appApiNotFound, buildRestRouter, credentialsOf } from './rest-compat/router';
import type { Caller } from './services/auth.service';

export interface RunningServer {
  server: http.Server;
  url: string;
  close: () => Promise<void>;
}

/** Resolves the caller for GraphQL; an authentication failure is kept and raised only by fields that need a
 * caller, so `login` still works beside a stale cookie. */
async function graphqlCaller(services: Services, credentials: { authorization?: string; sessionToken?: string }) {
  try {
    return { caller: await services.auth.authenticate(credentials), authError: null };
  } catch (error) {
    const known = asDomainError(error);
    if (known?.code === 'database_unavailable')
      throw new GraphQLError(known.message, { originalError: known, extensions: { http: { status: known.status } } });
    if (known) return { caller: null as Caller | null, authError: known };
    throw error;
  }
}

/** A GraphQL response that failed because the database is unreachable is a 503, as over REST, so clients
 * retry (the context function says so itself when authentication already found the database down). */
/** A caller over MAX_CONCURRENT_REQUESTS_PER_CALLER: 429 with a GraphQL error body. */
function refuseGraphql(_req: Request, res: Response): void {
  res.status(429).json({ errors: [{ message: 'Too many requests in progress for this caller.', extensions: { code: 'TOO_MANY_REQUESTS' } }] });
}

const databaseOutageStatus: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ errors, response }) {
        if (errors?.some((error) => asDomainError(unwrapResolverError(error))?.code === 'database_unavailable')) response.http.status = 503;
      },
    };
  },
};

/** ROLE=app: the generated application alone (its API, the admin pages, health), with no studio routes. */
async function startAppServer(services: Services, options: { port: number; host?: string }): Promise<RunningServer> {
  const { app, httpServer, routes } = createBaseApp(services);
  app.use(buildAdminRouter(services));
  app.use(openApiRouter(APP_API_ROUTES, { serverUrl: services.settings.publicBaseUrl, appOnly: true }));
  app.use(landingRouter(services.settings));
  app.use(buildRestRouter(services, APP_API_ROUTES, routes));
  app.use(appApiNotFound);
  await services.keyCache.start();
  const url = await listen(httpServer, options.port, options.host);
  return {
    server: httpServer,
    url,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // After the last request: every counted key use is written.
      await services.keyCache.stop();
    },
  };
}

export async function startHttpServer(services: Services, options: { port: number; host?: string; schema?: GraphQLSchema }): Promise<RunningServer> {
  applyHeapGrowth(services.settings.heapGrowingPercent);
  if (services.settings.role === 'app') return startAppServer(services, options);
  const { app, httpServer, routes } = createBaseApp(services);

  const schema = limitRootFieldConcurrency(options.schema ?? (await buildGatewaySchema()));
  const formatError = formatGraphQLError(services.logger);
  const limits = {
    maxDepth: services.settings.graphqlMaxDepth,
    maxCost: services.settings.graphqlMaxCost,
    maxRootFields: services.settings.graphqlMaxRootFields,
  };
  const exposure = { suggestions: services.settings.graphqlSuggestions, introspection: services.settings.graphqlIntrospection };
  // One set of caller budgets for REST, GraphQL over HTTP and GraphQL over WebSocket.
  const budgets = callerBudgetsOf(services.settings, services.app.dbShares);
  const wsCleanup = serveGraphqlOverWebSocket(services, httpServer, schema, limits, exposure, budgets);
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    csrfPrevention: true,
    formatError,
    introspection: exposure.introspection,
    hideSchemaDetailsFromClientErrors: !exposure.suggestions,
    // Error responses name the problem, never the server's files: no stack traces, whatever NODE_ENV says.
    includeStacktraceInErrorResponses: false,
    validationRules: [queryLimitsRule(limits), storableTextRule],
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      { serverWillStart: async () => ({ drainServer: async () => void (await wsCleanup.dispose()) }) },
      databaseOutageStatus,
      subscriptionsOverHttpRefused,
      publicReadLimit,
    ],
  });
  await apollo.start();

  app.use(buildAdminRouter(services));
  app.use(accountPages(services));
  app.use(openApiRouter(ROUTES, { serverUrl: services.settings.publicBaseUrl, appOnly: false }));
  app.use(landingRouter(services.settings));
  app.use(buildRestRouter(services, ROUTES, routes, budgets));
  app.use(graphiqlRouter());
  app.use(
    '/graphql',
    graphqlUploadExpress({ maxFileSize: services.settings.maxUploadBytes + 1, maxFiles: 50 }),
    limitConcurrency(budgets, refuseGraphql),
    // A large body is parsed in its caller's turn of the event loop (src/http/loop-turns.ts).
    (req: Request, _res: Response, next: NextFunction) => (needsTurn(req) ? void loopTurn(budgets.callerOf(req)).then(() => next()) : next()),
    express.json({ limit: '1mb', verify: strictUtf8 }),
    graphqlRequestGuard(limits, formatError),
    expressMiddleware(apollo, {
      context: async ({ req, res }: { req: Request; res: Response }) => {
        const { caller, authError } = await graphqlCaller(services, credentialsOf(req));
        if (caller) budgets.remember(presentedCredential(req), callerIdOf(caller));
        const callerId = caller ? callerIdOf(caller) : budgets.callerOf(req);
        return { services, caller, authError, loaders: createLoaders(services), req, res, dbSlots: dbSlotsOf(services, budgets, callerId) };
      },
    }),
    graphqlTransportErrors,
  );
  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found.', error_type: 'not_found' });
  });

  await services.keyCache.start();
  const url = await listen(httpServer, options.port, options.host);
  return {
    server: httpServer,
    url,
    close: async () => {
      await apollo.stop();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // After the last request: every counted key use is written.
      await services.keyCache.stop();
    },
  };
}

/** The database slots of one GraphQL operation: GRAPHQL_MAX_DB_CONNECTIONS of its own, inside the caller's
 * DB_CONNECTIONS_PER_CALLER shared with all its other requests and socket operations. */
function dbSlotsOf(services: Services, budgets: CallerBudgets, callerId: string): NonNullable<GraphQLContext['dbSlots']> {
  const own = new Semaphore(services.settings.graphqlMaxDbConnections);
  return { run: (work) => own.run(() => budgets.withDbShare(callerId, work)) };
}

/** A socket operation past MAX_CONCURRENT_REQUESTS_PER_CALLER: the REST 429's error, the socket stays open. */
function tooManyInFlight(max: number): GraphQLError {
  const message = `Too many requests in progress for this caller: at most ${max} at once (MAX_CONCURRENT_REQUESTS_PER_CALLER).`;
  return new GraphQLError(message, { originalError: new DomainError(429, 'too_many_requests', message, { retry_after_seconds: 1 }) });
}

/** A subscription past a socket's or a user's cap: a client's error (429), formatted as one, never logged as the
 * service's own (a flood of them is thousands of stack traces written on the event loop). */
function tooManySubscriptions(message: string): GraphQLError {
  return new GraphQLError(message, { originalError: new DomainError(429, 'too_many_subscriptions', message) });
}

/** GraphQL over WebSocket (graphql-ws) on /graphql. The caller comes from `connection_init`'s Authorization or
 * the upgrade's session cookie (a foreign origin needs the CSRF token too); its socket closes with 4401 once that
 * credential stops working, and with 4429 past a limit (README: Security). */
function serveGraphqlOverWebSocket(
  services: Services,
  httpServer: http.Server,
  schema: GraphQLSchema,
  limits: QueryLimits,
  exposure: SchemaExposure,
  budgets: CallerBudgets,
): { dispose: () => Promise<void> } {
  const { settings, logger } = services;
  const formatError = formatGraphQLError(logger);
  const sockets = new OpenSockets(services.auth, services.clock, settings.websocket.maxSocketsPerCredential, logger);
  const unsubscribe = services.events?.subscribeCredentials((event) => sockets.changed(event));
  const guarded = guardedSubscribe(schema, limits, exposure);
  /** One subscription past WS_MAX_SUBSCRIPTIONS_PER_USER: its socket closes with 4429. */
  const refuseSubscription = (socket: SocketExtra['socket']) => {
    const max = settings.websocket.maxSubscriptionsPerUser;
    socket.close(TOO_MANY, `Too many subscriptions for one user: at most ${max} (WS_MAX_SUBSCRIPTIONS_PER_USER)`);
    return [tooManySubscriptions(`Too many subscriptions for one user: at most ${max}.`)];
  };
  const server = serveGraphqlSockets(
    httpServer,
    {
      schema,
      onSubscribe: async (ctx, id, payload) => {
        const max = settings.websocket.maxSubscriptionsPerSocket;
        if (Object.keys(ctx.subscriptions).length > max) {
          ctx.extra.socket.close(TOO_MANY, `Too many operations on one socket: at most ${max}`);
          return [tooManySubscriptions(`Too many operations on one socket: at most ${max}.`)];
        }
        // A user at its subscription cap is refused before the document is parsed when it can only subscribe.
        const { userId: subscriber } = ctx.extra;
        if (
          subscriber !== undefined &&
          budgets.subscriptionsFull(subscriber) &&
          typeof payload.query === 'string' &&
          onlySubscriptions(payload.query)
        )
          return refuseSubscription(ctx.extra.socket);
        const args = guarded(ctx, id, payload);
        if (Array.isArray(args)) return args;
        const callerOf = async () => (await graphqlCaller(services, ctx.extra.credentials ?? {})).caller;
        const limited = await socketReadLimit(services, args, callerOf, ctx.extra.request.socket.remoteAddress ?? 'unknown');
        if (Array.isArray(limited)) return limited;
        // A query or mutation holds one of the caller's in-flight slots, as over HTTP; a subscription one of its
        // user's subscriptions, across every socket and key. Both are released by onComplete or onClose.
        const { callerId, userId, held } = ctx.extra;
        if (callerId === undefined || userId === undefined || !held) return limited;
        if (getOperationAST(limited.document, limited.operationName)?.operation === OperationTypeNode.SUBSCRIPTION) {
          const release = budgets.acquireSubscription(userId);
          if (!release) return refuseSubscription(ctx.extra.socket);
          held.set(id, release);
        } else {
          const release = budgets.inFlight.acquire(callerId);
          if (!release) return [tooManyInFlight(budgets.inFlight.maxPerCaller)];
          held.set(id, release);
        }
        return limited;
      },
      context: async (ctx) => {
        const { caller, authError } = await graphqlCaller(services, ctx.extra.credentials ?? {});
        const callerId = ctx.extra.callerId ?? `address:${ctx.extra.request.socket.remoteAddress ?? 'unknown'}`;
        return { services, caller, authError, loaders: createLoaders(services), dbSlots: dbSlotsOf(services, budgets, callerId) };
      },
      onComplete: (ctx, id) => {
        ctx.extra.held?.get(id)?.();
        ctx.extra.held?.delete(id);
      },
      // Subscription errors carry the same extensions.code as HTTP GraphQL errors.
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error.toJSON(), error)),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) } : undefined,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const credentials = socketCredentials(ctx.connectionParams, request);
        const mark = sockets.mark();
        const { caller } = await graphqlCaller(services, credentials);
        if (!caller) return false;
        const sameSite = originAllowed(request.headers.origin, request.headers.host, settings.publicBaseUrl, settings.websocket.allowedOrigins);
        if (crossSiteRefused(caller, ctx.connectionParams, sameSite)) {
          socket.close(4403, 'Forbidden: a session socket from another origin needs the CSRF token in connection_init');
          return false;
        }
        if (!sockets.track(socket, credentials, caller, mark)) {
          socket.close(TOO_MANY, `Too many sockets for one credential: at most ${settings.websocket.maxSocketsPerCredential}`);
          return false;
        }
        ctx.extra.credentials = credentials;
        ctx.extra.callerId = callerIdOf(caller);
        ctx.extra.userId = caller.user.id;
        ctx.extra.held = new Map();
        budgets.remember(credentials.authorization ?? credentials.sessionToken, ctx.extra.callerId);
        return true;
      },
      onClose: (ctx) => {
        sockets.untrack(ctx.extra.socket);
        for (const release of ctx.extra.held?.values() ?? []) release();
        ctx.extra.held?.clear();
      },
    },
    settings.websocket,
    logger,
  );
  return {
    dispose: async () => {
      unsubscribe?.();
      await server.dispose();
    },
  };
}
