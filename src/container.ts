import type { DataSource } from 'typeorm';
import { createAppServices, type AppServices } from './services/app-api.services';
import type { Settings } from './config';
import type { JobEventHub } from './jobs/job-events';
import type { JobQueue } from './jobs/queue';
import { Links } from './lib/links';
import type { Logger } from './lib/logger';
import { AuthService } from './services/auth.service';
import { AssemblyService } from './services/assembly.service';
import { CatalogService } from './services/catalog.service';
import { ContextualService } from './services/contextual.service';
import { DataSourcesService } from './services/data-sources.service';
import { GenerationService } from './services/generation.service';
import { systemClock, type Clock } from './services/clock';
import { JobsService } from './services/jobs.service';
import { KeysService } from './services/keys.service';
import { LedgerService } from './services/ledger.service';
import { PackageService } from './services/package.service';
import { PipelineService } from './services/pipeline.service';
import { SchemaArchive } from './services/schema-archive';
import { SchemaHostingService } from './services/schema-hosting.service';
import { SigningService } from './services/signing.service';
import { UsersService } from './services/users.service';

/** Every service, built once per process from its collaborators (constructor injection, no globals). */
export interface Services {
  settings: Settings;
  db: DataSource;
  logger: Logger;
  clock: Clock;
  links: Links;
  queue: JobQueue;
  /** Job changes from every process (LISTEN/NOTIFY); null where nothing subscribes (workers, CLI). */
  events: JobEventHub | null;
  users: UsersService;
  auth: AuthService;
  keys: KeysService;
  ledger: LedgerService;
  jobs: JobsService;
  catalog: CatalogService;
  packages: PackageService;
  contextual: ContextualService;
  schemas: SchemaHostingService;
  assembly: AssemblyService;
  pipeline: PipelineService;
  dataSources: DataSourcesService;
  generation: GenerationService;
  signing: SigningService;
  /** Interface B: the generated application's API. */
  app: AppServices;
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
  const catalog = new CatalogService(db, clock, links);
  const ledger = new LedgerService(db, clock);
  const jobs = new JobsService(db, queue, ledger, links, clock);
  const contextual = new ContextualService(db);
  const schemaArchive = new SchemaArchive(clock);
  const packages = new PackageService(db, catalog, clock, settings, links, contextual, schemaArchive);
  const assembly = new AssemblyService(db, catalog, ledger, jobs, clock, links);
  const pipeline = new PipelineService(db, jobs, assembly, catalog, packages, ledger, links, logger);
  const dataSources = new DataSourcesService(db, jobs, assembly, pipeline, clock);
  const generation = new GenerationService(db, catalog, packages, jobs, ledger, links, () => settings.appDownloadCredits);
  return {
    settings,
    db,
    logger,
    clock,
    links,
    queue,
    events: args.events ?? null,
    users: new UsersService(db),
    auth: new AuthService(db, clock, settings),
    keys: new KeysService(db, clock, settings.keyPrefix),
    ledger,
    jobs,
    catalog,
    packages,
    contextual,
    schemas: new SchemaHostingService(db, schemaArchive, packages, links),
    assembly,
    pipeline,
    dataSources,
    generation,
    signing: new SigningService(db, clock),
    app: createAppServices({ settings, db, queue, clock, logger }),
  };
}
