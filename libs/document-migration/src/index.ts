export * from './lib/migration-state';
export * from './lib/migration.jobs';
export * from './lib/migration.settings';
export * from './lib/document-migration.errors';
export * from './lib/slice-plan';
export * from './lib/workspace.service';
export * from './lib/migration.service';
export * from './lib/migration.queue';
export * from './lib/migration.runner';
export * from './lib/migration.reconciler';
export * from './lib/migration.metrics';
export * from './lib/document-migration.module';
export { MIGRATION_SCHEMA } from './lib/repositories/migration-tables';
export type { ImportedDocument, ImportedRecord, OrganizationStats } from './lib/repositories/document.repository';
export * from './migrations/1763760000000-migration-schema';

import { MigrationSchema1763760000000 } from './migrations/1763760000000-migration-schema';
import { MigrationCancelledBy1764000000000 } from './migrations/1764000000000-migration-cancelled-by';
/** Every schema migration of the `migration` schema, in order; the app hands them to ServiceCoreModule. */
export const MIGRATION_SCHEMA_MIGRATIONS = [MigrationSchema1763760000000, MigrationCancelledBy1764000000000];
