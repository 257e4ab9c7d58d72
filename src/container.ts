import type { DataSource } from 'typeorm';
import type { Settings } from './config';
import type { JobQueue } from './jobs/queue';
import type { Logger } from './lib/logger';
import { AuthService } from './services/auth.service';
import { systemClock, type Clock } from './services/clock';
import { KeysService } from './services/keys.service';
import { LedgerService } from './services/ledger.service';
import { UsersService } from './services/users.service';

/** Every service, built once per process from its collaborators (constructor injection, no globals). */
export interface Services {
  settings: Settings;
  db: DataSource;
  logger: Logger;
  clock: Clock;
  queue: JobQueue;
  users: UsersService;
  auth: AuthService;
  keys: KeysService;
  ledger: LedgerService;
}

export function createServices(args: { settings: Settings; db: DataSource; logger: Logger; queue: JobQueue; clock?: Clock }): Services {
  const { settings, db, logger, queue } = args;
  const clock = args.clock ?? systemClock;
  return {
    settings,
    db,
    logger,
    clock,
    queue,
    users: new UsersService(db),
    auth: new AuthService(db, clock, settings),
    keys: new KeysService(db, clock, settings.keyPrefix),
    ledger: new LedgerService(db, clock),
  };
}
