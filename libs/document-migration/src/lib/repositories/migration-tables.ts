import type { EntityManager } from 'typeorm';
import { migrationTable as qualified } from '@acme/migration-schema';

/** Qualified table names for the repositories' SQL. */
export const TABLES = {
  workspaces: qualified('workspaces'),
  organizations: qualified('organizations'),
  documents: qualified('documents'),
  records: qualified('records'),
  migrations: qualified('migrations'),
  migrationSlices: qualified('migration_slices'),
  migrationHolds: qualified('migration_holds'),
} as const;

/** Anything that runs SQL: the DataSource, a read replica's, or a transaction's EntityManager. */
export type Queryable = Pick<EntityManager, 'query'>;
