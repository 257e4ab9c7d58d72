import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities';

/** The TypeORM connection pool. Schema changes come only from src/db/migrations (synchronize stays off). */
export function createDataSource(url: string, poolSize = 20): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 5000, statement_timeout: 30000 },
  });
}
