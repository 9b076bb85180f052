/** The PostgreSQL schema the migration-worker owns; every qualified name of its lib is built from it. */
export const MIGRATION_SCHEMA = 'migration';

/** The schema-qualified, quoted name of a migration table, for raw SQL in repositories. */
export const migrationTable = (table: string): string => `"${MIGRATION_SCHEMA}"."${table}"`;
