import type { EntityManager } from 'typeorm';

/** The PostgreSQL schema the migration-worker owns; every qualified name of this lib is built from it. */
export const MIGRATION_SCHEMA = 'migration';

const qualified = (table: string): string => `"${MIGRATION_SCHEMA}"."${table}"`;

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
