import type { DataSource } from 'typeorm';
import { createAppServices, type AppServices } from './services/app-api.services';
import type { Settings } from './config';
import type { JobEventHub } from './jobs/job-events';
import type { JobQueue } from './jobs/queue';
import { ReadRateLimiter } from './http/rate-limit';
import { IdempotencyStore } from './http/idempotency';
import { Links } from './lib/links';
import type { Logger } from './lib/logger';
import { AuthService } from './services/auth.service';
import { AssemblyService } from './services/assembly.service';
import { ModelBuilder } from './services/model-builder';
import { CatalogService } from './services/catalog.service';
import { DcatService } from './services/dcat.service';
import { ContextualService } from './services/contextual.service';
import { DataSourcesService } from './services/data-sources.service';
import { createDraftsServices, type DraftsServices } from './services/drafts.service';
import { GenerationService } from './services/generation.service';
import { systemClock, type Clock } from './services/clock';
import { JobsService } from './services/jobs.service';
import { KeyCache } from './services/key-cache';
import { KeysService } from './services/keys.service';
import { LedgerService } from './money';
import { PackageService } from './services/package.service';
import { PipelineService } from './services/pipeline.service';
import { ProjectsService } from './services/projects.service';
import { SchemaArchive } from './services/schema-archive';
import { SchemaHostingService } from './services/schema-hosting.service';
import { SigningService } from './services/signing.service';
import { UsersService } from './services/users.service';
import { createVaasService } from './services/vaas.services';
import type { VaasService } from './services/vaas.service';
import { CpuPool } from './workers/pool';
import { applyLimits } from './workers/thread-setup';
import { createVslService, type VslService } from './vsl';

/** Every service, built once per process from its collaborators (constructor injection, no globals). */
export interface Services {
  settings: Settings;
  db: DataSource;
  logger: Logger;
  clock: Clock;
  links: Links;
  /** Idempotency-Key answers, shared by REST and GraphQL. */
  idempotency: IdempotencyStore;
  queue: JobQueue;
  /** Job changes from every process (LISTEN/NOTIFY); null where nothing subscribes (workers, CLI). */
  events: JobEventHub | null;
  users: UsersService;
  auth: AuthService;
  keys: KeysService;
  /** Resolved keys of both interfaces and their usage counters; started and stopped with the HTTP server. */
  keyCache: KeyCache;
  ledger: LedgerService;
  jobs: JobsService;
  catalog: CatalogService;
  /** Projects and the modeler (the caller's default project). */
  projects: ProjectsService;
  /** Hourly limits of the public catalog reads. */
  readLimits: ReadRateLimiter;
  packages: PackageService;
  contextual: ContextualService;
  schemas: SchemaHostingService;
  assembly: AssemblyService;
  builder: ModelBuilder;
  pipeline: PipelineService;
  dataSources: DataSourcesService;
  generation: GenerationService;
  signing: SigningService;
  /** The drafts API of modeling tools (components, clusters, models, semantic links). */
  drafts: DraftsServices;
  /** The DCAT 3 catalog of the public model library. */
  dcat: DcatService;
  /** Validation as a service (POST /api/v1/vaas/validate/). */
  vaas: VaasService;
  /** Interface B: the generated application's API. */
  app: AppServices;
  /** The Verifiable Settlement Layer: settle, trigger, Receipts and the issuer's P-256 keys. */
  vsl: VslService;
  /** The worker-thread pool for CPU-bound work. */
  cpu: CpuPool;
}

export function createServices(args: {
  settings: Settings;
  db: DataSource;
  logger: Logger;
  queue: JobQueue;
  events?: JobEventHub | null;
  clock?: Clock;
}): Services {
  const { settings, db, logger, queue } = args;
  const clock = args.clock ?? systemClock;
  const links = new Links(settings);
  const cpu = new CpuPool(settings.cpu);
  applyLimits(settings.cpu.thread);
  const catalog = new CatalogService(db, clock, links);
  const keyCache = new KeyCache(db, logger);
  const ledger = new LedgerService(db, clock, settings.requestHoldTtlSeconds, (userId) => keyCache.keySpendChanging(userId));
  const jobs = new JobsService(db, queue, ledger, links, clock);
  const contextual = new ContextualService(db);
  const schemaArchive = new SchemaArchive(clock);
  const app = createAppServices({ settings, db, queue, clock, logger, pool: cpu, keyCache });
  const packages = new PackageService(db, catalog, clock, app.storage, links, contextual, schemaArchive, cpu, settings.packageTaskBudgetMs);
  const builder = new ModelBuilder(catalog);
  const assembly = new AssemblyService(db, ledger, jobs, clock, links, cpu);
  const pipeline = new PipelineService(db, assembly, catalog, packages, links, logger);
  const dataSources = new DataSourcesService(db, jobs, clock, ledger);
  const generation = new GenerationService(db, catalog, packages, jobs, ledger, links, () => settings.appDownloadCredits);
  const schemas = new SchemaHostingService(db, schemaArchive, packages, links);
  const signing = new SigningService(db, clock);
  const vaas = createVaasService({
    settings,
    db,
    clock,
    links,
    logger,
    cpu,
    hosting: schemas,
    packages,
    ledger,
    signing,
    storage: app.storage,
    schemaSets: app.schemas,
  });
  const vsl = createVslService({ settings, db, clock, links, logger, cpu, hosting: schemas, packages, ledger, schemaSets: app.schemas });
  return {
    settings,
    db,
    logger,
    clock,
    links,
    idempotency: new IdempotencyStore(db, settings.idempotencyLeaseSeconds),
    queue,
    events: args.events ?? null,
    users: new UsersService(db, keyCache),
    auth: new AuthService(db, clock, settings, keyCache),
    keys: new KeysService(db, clock, settings.keyPrefix, keyCache),
    keyCache,
    ledger,
    jobs,
    catalog,
    projects: new ProjectsService(db),
    readLimits: new ReadRateLimiter(db, clock, settings),
    packages,
    contextual,
    schemas,
    assembly,
    builder,
    pipeline,
    dataSources,
    generation,
    drafts: createDraftsServices(db, clock, catalog, ledger),
    signing,
    vaas,
    app,
    vsl,
    cpu,
    dcat: new DcatService(db),
  };
}
