import path from 'node:path';
import type { CpuPoolSettings } from './workers/pool';

/** Every setting the service reads, from the environment, with its documented default (README: Configuration). */
export interface Settings {
  port: number;
  host: string;
  /** Absolute base of the URLs the service hands out (job_url, model_url, package_url, …). */
  publicBaseUrl: string;
  role: 'all' | 'gateway' | 'worker' | 'app';
  /** A generated application's name (APP_NAME) and its app.json (APP_CONFIG), read at start in ROLE=app. */
  app: { name: string | null; configPath: string | null };
  databaseUrl: string | null;
  embeddedPgDir: string;
  embeddedPgPort: number;
  keyPrefix: string;
  sessionTtlHours: number;
  cookieSecure: boolean;
  appDownloadCredits: number;
  /** REQUEST_HOLD_TTL_SECONDS: a request-scoped hold (VaaS) still open after this is released by the sweep. */
  requestHoldTtlSeconds: number;
  /** IDEMPOTENCY_LEASE_SECONDS: an Idempotency-Key claimed this long ago with nothing committed may be taken over. */
  idempotencyLeaseSeconds: number;
  /** Validation as a service: credits per validation and per signature, and how long a package is offered. */
  vaas: { validationCredits: number; signatureCredits: number; packageTtlSeconds: number; packageQuotaBytes: number };
  /** The Verifiable Settlement Layer (src/vsl): VSL_RECEIPT_CREDITS per Receipt issued; party key documents are
   * fetched over HTTPS within VSL_PARTY_KEY_TIMEOUT_MS and VSL_PARTY_KEY_MAX_BYTES, never from a private or
   * loopback address unless its URL starts with a VSL_PARTY_KEY_ALLOW prefix; VSL_PARTY_KEY_CA (a PEM file) adds
   * certificate authorities trusted for those fetches. */
  vsl: { receiptCredits: number; partyKeyAllow: string[]; partyKeyCaFile: string | null; partyKeyTimeoutMs: number; partyKeyMaxBytes: number };
  maxUploadBytes: number;
  storageDir: string;
  /** STORAGE_URL: `postgres:` (blobs in the database, shared by every node) or `file:[<dir>]` (STORAGE_DIR). */
  storageUrl: string;
  /** STORAGE_GC_GRACE_SECONDS: an unreferenced blob (postgres:) is collected once untouched this long. */
  storageGcGraceSeconds: number;
  schemaCatalogDir: string;
  schemaFetch: boolean;
  /** Reference schemas fetched once on first use and stored in Postgres: SDC4_SCHEMA_ALLOW (comma-separated URL
   * prefixes, `none` for none) and SDC4_SCHEMA_MIRROR (a base URL standing in for them). */
  referenceSchemas: { allow: string[]; mirror: string | null };
  logLevel: string;
  requestTimeoutMs: number;
  workerConcurrency: number;
  /** A pause after each pipeline step, to watch progress (demos, crash tests); 0 in production. */
  pipelineStepDelayMs: number;
  /** Seconds a worker may hold a job before another worker takes it over (crash recovery). */
  jobExpireSeconds: number;
  /** How often the queue supervisor looks for expired jobs. */
  queueMaintenanceSeconds: number;
  /** JOB_EVENTS_RETENTION_DAYS: a job ended longer ago keeps only its last event; 0 keeps every event. */
  jobEventsRetentionDays: number;
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
  /** Public catalog reads an hour: per client address without credentials, per user with a key or session. */
  anonymousReadsPerHour: number;
  keyedReadsPerHour: number;
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  /** Root fields of one GraphQL operation, aliases counted (each runs a resolver). */
  graphqlMaxRootFields: number;
  /** GraphQL's "Did you mean …?" hints in validation errors (off by default under NODE_ENV=production). */
  graphqlSuggestions: boolean;
  /** Schema introspection (`__schema`, `__type`) for every caller; the schema is published anyway. */
  graphqlIntrospection: boolean;
  /** graphql-ws limits and the origins whose pages may use a session cookie over a socket (README: Security). */
  websocket: WebSocketSettings;
  triplestore: {
    url: string | null;
    queryUrl: string | null;
    protocol: 'graph-store' | 'graphdb';
    repository: string | null;
    user: string | null;
    password: string | null;
  };
  /** How often instances whose triplestore sync failed are retried once the triplestore answers again. */
  rdfResyncSeconds: number;
  loadBfoAlignment: boolean;
  reasoning: 'none' | 'owl2rl';
  /** The worker-thread pool for CPU-bound work and the limits its tasks enforce (README: Configuration). */
  cpu: CpuPoolSettings;
  /** The event loop's old-generation growth between full GCs, in percent (HEAP_GROWING_PERCENT; 0: V8's own). */
  heapGrowingPercent: number;
  /** Rendering and zipping one model package in the CPU pool (PACKAGE_TASK_BUDGET_MS). */
  packageTaskBudgetMs: number;
  sparqlTimeoutMs: number;
  sparqlMaxRows: number;
  /** Interface B's storage caps: triples overall and per organisation (what the embedded SPARQL store loads),
   * stored bytes (instances and uploaded files) per organisation. */
  appStorage: { maxTriples: number; maxTriplesPerOrganization: number; storageQuotaBytes: number };
  /** Requests one API key, session or address may have in progress at once; more answer 429. */
  maxConcurrentRequestsPerCaller: number;
  /** Database connections one GraphQL operation may hold at once. */
  graphqlMaxDbConnections: number;
  /** Database connections the GraphQL fields of one caller (all its requests and socket operations) hold at once. */
  dbConnectionsPerCaller: number;
  /** What checking one uploaded ZIP may inflate, nested archives included, and how long it may take. */
  zipMaxInflatedBytes: number;
  zipMaxInflateMs: number;
  /** `/metrics` (README: Metrics): off, open, or only with METRICS_TOKEN as a Bearer token. */
  metrics: 'off' | 'on' | 'token';
  metricsToken: string | null;
}

export interface WebSocketSettings {
  /** Origins besides the service's own whose pages may open a socket that uses the session cookie. */
  allowedOrigins: string[];
  maxSubscriptionsPerSocket: number;
  /** Subscriptions one user may have open across all its sockets and keys. */
  maxSubscriptionsPerUser: number;
  maxSocketsPerCredential: number;
  maxSocketsPerAddress: number;
  maxMessageBytes: number;
  maxMessagesPerSecond: number;
  /** Messages per second one caller may send over all its sockets together. */
  maxMessagesPerSecondPerCaller: number;
}

type Env = Record<string, string | undefined>;

/** The SDC4 namespace: its reference schema (sdc4.xsd) is fetched on first use unless SDC4_SCHEMA_ALLOW says otherwise. */
const SDC4_NAMESPACE = 'https://semanticdatacharter.com/ns/sdc4/';

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

/** A nice value: 0 (unchanged) to 19 (lowest priority). */
function niceness(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value < 0 || value > 19) throw new Error(`${name} must be 0 to 19, got "${env[name]}"`);
  return value;
}

function atLeastZero(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value < 0) throw new Error(`${name} must be 0 or more, got "${env[name]}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw.toLowerCase() === 'none'
    ? []
    : raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

function metricsMode(env: Env): Settings['metrics'] {
  const mode = oneOf(env, 'METRICS', ['off', 'on', 'token'] as const, 'on');
  if (mode === 'token' && !env.METRICS_TOKEN) throw new Error('METRICS=token needs METRICS_TOKEN');
  return mode;
}

export function loadSettings(env: Env = process.env): Settings {
  const root = process.cwd();
  return {
    port: int(env, 'PORT', 4000),
    host: env.HOST || '0.0.0.0',
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${int(env, 'PORT', 4000)}`).replace(/\/+$/, ''),
    role: oneOf(env, 'ROLE', ['all', 'gateway', 'worker', 'app'] as const, 'all'),
    app: { name: env.APP_NAME || null, configPath: env.APP_CONFIG ? path.resolve(root, env.APP_CONFIG) : null },
    databaseUrl: env.DATABASE_URL || null,
    embeddedPgDir: path.resolve(root, env.EMBEDDED_PG_DIR || '.data/postgres'),
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 0),
    keyPrefix: env.KEY_PREFIX || 'sdc_',
    sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 336),
    cookieSecure: bool(env, 'COOKIE_SECURE', false),
    appDownloadCredits: int(env, 'APP_DOWNLOAD_CREDITS', 0),
    requestHoldTtlSeconds: int(env, 'REQUEST_HOLD_TTL_SECONDS', 600),
    idempotencyLeaseSeconds: int(env, 'IDEMPOTENCY_LEASE_SECONDS', 120),
    vaas: {
      validationCredits: int(env, 'VAAS_VALIDATION_CREDITS', 1),
      signatureCredits: int(env, 'VAAS_SIGNATURE_CREDITS', 5),
      packageTtlSeconds: int(env, 'VAAS_PACKAGE_TTL_SECONDS', 86_400),
      packageQuotaBytes: int(env, 'VAAS_PACKAGE_QUOTA_BYTES', 256 * 1024 * 1024),
    },
    vsl: {
      receiptCredits: int(env, 'VSL_RECEIPT_CREDITS', 1),
      partyKeyAllow: list(env, 'VSL_PARTY_KEY_ALLOW', []),
      partyKeyCaFile: env.VSL_PARTY_KEY_CA ? path.resolve(root, env.VSL_PARTY_KEY_CA) : null,
      partyKeyTimeoutMs: int(env, 'VSL_PARTY_KEY_TIMEOUT_MS', 5000),
      partyKeyMaxBytes: int(env, 'VSL_PARTY_KEY_MAX_BYTES', 65_536),
    },
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 20 * 1024 * 1024),
    storageDir: path.resolve(root, env.STORAGE_DIR || '.data/storage'),
    // A generated application (ROLE=app) ships its schema library as a mounted directory: file: by default.
    storageUrl: env.STORAGE_URL || (env.DATABASE_URL && env.ROLE !== 'app' ? 'postgres:' : 'file:'),
    storageGcGraceSeconds: int(env, 'STORAGE_GC_GRACE_SECONDS', 3600),
    schemaCatalogDir: path.resolve(root, env.SCHEMA_CATALOG_DIR || 'schemas'),
    schemaFetch: env.SCHEMA_FETCH === 'allow',
    referenceSchemas: { allow: list(env, 'SDC4_SCHEMA_ALLOW', [SDC4_NAMESPACE]), mirror: env.SDC4_SCHEMA_MIRROR || null },
    logLevel: env.LOG_LEVEL || 'info',
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30000),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 2),
    pipelineStepDelayMs: int(env, 'PIPELINE_STEP_DELAY_MS', 0),
    jobExpireSeconds: int(env, 'JOB_EXPIRE_SECONDS', 300),
    queueMaintenanceSeconds: int(env, 'QUEUE_MAINTENANCE_SECONDS', 30),
    jobEventsRetentionDays: atLeastZero(env, 'JOB_EVENTS_RETENTION_DAYS', 30),
    loginMaxFailuresPerAccount: int(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 5),
    loginMaxFailuresPerAddress: int(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900),
    anonymousReadsPerHour: int(env, 'ANONYMOUS_READS_PER_HOUR', 200),
    keyedReadsPerHour: int(env, 'KEYED_READS_PER_HOUR', 2000),
    graphqlMaxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 12),
    graphqlMaxCost: int(env, 'GRAPHQL_MAX_COST', 500),
    graphqlMaxRootFields: int(env, 'GRAPHQL_MAX_ROOT_FIELDS', 50),
    graphqlSuggestions: bool(env, 'GRAPHQL_SUGGESTIONS', env.NODE_ENV !== 'production'),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', true),
    websocket: {
      allowedOrigins: list(env, 'WS_ALLOWED_ORIGINS', []).map((origin) => origin.replace(/\/+$/, '').toLowerCase()),
      maxSubscriptionsPerSocket: int(env, 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', 100),
      maxSubscriptionsPerUser: int(env, 'WS_MAX_SUBSCRIPTIONS_PER_USER', 200),
      maxSocketsPerCredential: int(env, 'WS_MAX_SOCKETS_PER_CREDENTIAL', 20),
      maxSocketsPerAddress: int(env, 'WS_MAX_SOCKETS_PER_ADDRESS', 100),
      maxMessageBytes: int(env, 'WS_MAX_MESSAGE_BYTES', 1024 * 1024),
      maxMessagesPerSecond: int(env, 'WS_MAX_MESSAGES_PER_SECOND', 200),
      maxMessagesPerSecondPerCaller: int(env, 'WS_MAX_MESSAGES_PER_SECOND_PER_CALLER', 200),
    },
    triplestore: {
      url: env.TRIPLESTORE_URL || null,
      queryUrl: env.TRIPLESTORE_QUERY_URL || null,
      protocol: oneOf(env, 'TRIPLESTORE_PROTOCOL', ['graph-store', 'graphdb'] as const, 'graph-store'),
      repository: env.TRIPLESTORE_REPOSITORY || null,
      user: env.TRIPLESTORE_USER || null,
      password: env.TRIPLESTORE_PASSWORD || null,
    },
    rdfResyncSeconds: int(env, 'RDF_RESYNC_SECONDS', 30),
    loadBfoAlignment: bool(env, 'LOAD_BFO_ALIGNMENT', false),
    reasoning: oneOf(env, 'REASONING', ['none', 'owl2rl'] as const, 'none'),
    heapGrowingPercent: int(env, 'HEAP_GROWING_PERCENT', 30),
    cpu: {
      threads: int(env, 'CPU_POOL_THREADS', 0),
      taskBudgetMs: int(env, 'CPU_TASK_BUDGET_MS', 10_000),
      maxQueue: int(env, 'CPU_POOL_MAX_QUEUE', 64),
      maxQueuePerCaller: int(env, 'CPU_POOL_MAX_QUEUE_PER_CALLER', 32),
      largeTaskBytes: int(env, 'CPU_POOL_LARGE_TASK_BYTES', 256 * 1024),
      maxMemoryMb: int(env, 'CPU_TASK_MAX_MEMORY_MB', 512),
      thread: {
        nice: niceness(env, 'CPU_POOL_NICE', 4),
        xml: {
          maxBytes: 8 * 1024 * 1024,
          maxDepth: int(env, 'XML_MAX_DEPTH', 256),
          maxElements: int(env, 'XML_MAX_ELEMENTS', 500_000),
          maxAttributesPerElement: int(env, 'XML_MAX_ATTRIBUTES_PER_ELEMENT', 256),
          maxTotalAttributes: int(env, 'XML_MAX_TOTAL_ATTRIBUTES', 500_000),
          maxTextLength: int(env, 'XML_MAX_TEXT_LENGTH', 4 * 1024 * 1024),
          maxNamespaceDeclarations: int(env, 'XML_MAX_NAMESPACE_DECLARATIONS', 1_000),
        },
        rdf: { maxTriples: int(env, 'RDF_MAX_TRIPLES', 200_000), maxTermLength: int(env, 'RDF_MAX_TERM_LENGTH', 65_536) },
        csv: {
          maxRows: int(env, 'CSV_MAX_ROWS', 1_000_000),
          maxColumns: int(env, 'CSV_MAX_COLUMNS', 1_000),
          maxCellLength: int(env, 'CSV_MAX_CELL_LENGTH', 65_536),
        },
      },
    },
    packageTaskBudgetMs: int(env, 'PACKAGE_TASK_BUDGET_MS', 30_000),
    sparqlTimeoutMs: int(env, 'SPARQL_TIMEOUT_MS', 5_000),
    sparqlMaxRows: int(env, 'SPARQL_MAX_ROWS', 10_000),
    appStorage: {
      maxTriples: int(env, 'APP_MAX_TRIPLES', 2_000_000),
      maxTriplesPerOrganization: int(env, 'APP_MAX_TRIPLES_PER_ORGANIZATION', 500_000),
      storageQuotaBytes: int(env, 'APP_STORAGE_QUOTA_BYTES', 1024 * 1024 * 1024),
    },
    maxConcurrentRequestsPerCaller: int(env, 'MAX_CONCURRENT_REQUESTS_PER_CALLER', 32),
    graphqlMaxDbConnections: int(env, 'GRAPHQL_MAX_DB_CONNECTIONS', 2),
    dbConnectionsPerCaller: int(env, 'DB_CONNECTIONS_PER_CALLER', 4),
    zipMaxInflatedBytes: int(env, 'ZIP_MAX_INFLATED_BYTES', 256 * 1024 * 1024),
    zipMaxInflateMs: int(env, 'ZIP_MAX_INFLATE_MS', 10_000),
    metrics: metricsMode(env),
    metricsToken: env.METRICS_TOKEN || null,
  };
}
