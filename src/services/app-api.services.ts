import type { DataSource } from 'typeorm';
import type { Settings } from '../config';
import type { QueueSender } from '../db/queues';
import type { Logger } from '../lib/logger';
import { createTriplestoreClient } from '../rdf/config';
import type { Clock } from './clock';
import type { CpuPool } from '../workers/pool';
import { AppGraphStore } from '../rdf/app-graph-store';
import { AppKeysService } from './app-keys.service';
import { createSchemaSets, type SchemaSets } from '../validation';
import { FileStore } from '../storage/file-store';
import { createStorage } from '../storage/create-storage';
import type { Storage } from '../storage/storage';
import { StorageEvents } from '../storage/storage-events';
import { InstancesService } from './instances.service';
import type { KeyCache } from './key-cache';
import { SparqlService } from './sparql.service';
import { UploadsService } from './uploads.service';
import { ZIP_LIMITS } from '../storage/zip-inspector';
import { InstanceStore } from './instance-store';
import { ValidationService } from './validation.service';
import { AppStorageQuota } from './app-storage-quota';
import { CallerDbShares } from '../lib/caller-db-shares';

/** Interface B (the generated application's API): every rule lives in these services. */
export interface AppServices {
  keys: AppKeysService;
  /** This node's staging directory for uploads in flight. */
  files: FileStore;
  /** The stored files every node shares (STORAGE_URL). */
  storage: Storage;
  /** Storage changes from every node; `main` starts its LISTEN. */
  storageEvents: StorageEvents;
  /** Database connections per caller (DB_CONNECTIONS_PER_CALLER): its GraphQL fields and its storage writes. */
  dbShares: CallerDbShares;
  /** Validation's schema sets, every door's (VaaS gets the same one). */
  schemas: SchemaSets;
  uploads: UploadsService;
  validation: ValidationService;
  instances: InstancesService;
  graphs: AppGraphStore;
  sparql: SparqlService;
}

export function createAppServices(args: {
  settings: Settings;
  db: DataSource;
  queue: QueueSender;
  clock: Clock;
  logger: Logger;
  pool: CpuPool;
  keyCache: KeyCache;
}): AppServices {
  const { settings, db, queue, clock, logger, pool } = args;
  const files = new FileStore(settings.storageDir);
  const storageEvents = new StorageEvents(logger);
  const dbShares = new CallerDbShares(settings.dbConnectionsPerCaller);
  const storage = createStorage({ url: settings.storageUrl, storageDir: settings.storageDir, db, events: storageEvents, logger, dbShares });
  const schemas = createSchemaSets({ settings, db, logger, storage, events: storageEvents });
  const triplestore = createTriplestoreClient(settings.triplestore, { queryTimeoutMs: settings.sparqlTimeoutMs });
  const graphs = new AppGraphStore(db, { timeoutMs: settings.sparqlTimeoutMs, maxRows: settings.sparqlMaxRows, nice: settings.cpu.thread.nice });
  const quota = new AppStorageQuota(db, settings.appStorage);
  return {
    keys: new AppKeysService(db, clock, args.keyCache),
    files,
    storage,
    storageEvents,
    dbShares,
    schemas,
    uploads: new UploadsService(
      db,
      files,
      storage,
      pool,
      triplestore,
      logger,
      {
        ...ZIP_LIMITS,
        maxTotalBytes: settings.zipMaxInflatedBytes,
        maxMs: settings.zipMaxInflateMs,
      },
      quota,
    ),
    validation: new ValidationService(new InstanceStore(db, queue), schemas, pool, triplestore !== null, quota),
    instances: new InstancesService(db, queue, triplestore, clock, logger),
    graphs,
    sparql: new SparqlService(graphs),
  };
}
