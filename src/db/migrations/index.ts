import { foundation } from './0001-foundation';

export interface Migration {
  id: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [foundation];
