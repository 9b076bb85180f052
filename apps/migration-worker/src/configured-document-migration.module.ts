import { DocumentMigrationModule } from '@acme/document-migration';
import { MigrationEnv } from './config/env';

/**
 * The app's one configured DocumentMigrationModule. Every module that uses its services imports this same object;
 * Nest keys a dynamic module by its object, so they all share one instance (one runner, one reconciler).
 */
export const ConfiguredDocumentMigrationModule = DocumentMigrationModule.forRootAsync({
  inject: [MigrationEnv],
  useFactory: (env: MigrationEnv) => ({
    batchSize: env.MIGRATION_BATCH_SIZE,
    sliceSize: env.MIGRATION_SLICE_SIZE,
    maxSlices: env.MIGRATION_MAX_SLICES,
    jobAttempts: env.MIGRATION_JOB_ATTEMPTS,
    jobBackoffMs: env.MIGRATION_JOB_BACKOFF_MS,
  }),
});
