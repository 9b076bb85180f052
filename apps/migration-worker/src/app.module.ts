import { DynamicModule, Module } from '@nestjs/common';
import { createEnvValidator } from '@acme/platform-config';
import { ServiceCoreModule } from '@acme/platform-http';
import { QueueModule } from '@acme/platform-queue';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { DocumentMigrationModule, MIGRATION_SCHEMA, MIGRATION_SCHEMA_MIGRATIONS } from '@acme/document-migration';
import { AdminController } from './admin/admin.controller';
import { QueueBoardModule } from './admin/queue-board.module';
import { MigrationEnv } from './config/env';
import { MigrationsController } from './migrations/migrations.controller';
import { ServiceAuthGuard } from './migrations/service-auth.guard';
import { WorkspaceRateLimitGuard } from './migrations/workspace-rate-limit.guard';
import { MigrationWorkerModule } from './processors/migration-worker.module';
import { migrationService } from './service';

/** Public and operator routes (MIGRATION_ROLE api or all). */
@Module({
  imports: [QueueBoardModule, RateLimitingModule],
  controllers: [MigrationsController, AdminController],
  providers: [ServiceAuthGuard, WorkspaceRateLimitGuard],
})
export class MigrationApiModule {}

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    // Validated here as well as in ServiceCoreModule: the role decides which modules exist.
    const env = createEnvValidator(MigrationEnv)(source);
    const api = env.MIGRATION_ROLE !== 'worker';
    const worker = env.MIGRATION_ROLE !== 'api';
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({ service: migrationService, envClass: MigrationEnv, source, schema: MIGRATION_SCHEMA, migrations: MIGRATION_SCHEMA_MIGRATIONS }),
        QueueModule.forRoot(),
        DocumentMigrationModule.forRoot({
          batchSize: env.MIGRATION_BATCH_SIZE,
          sliceSize: env.MIGRATION_SLICE_SIZE,
          maxSlices: env.MIGRATION_MAX_SLICES,
          jobAttempts: env.MIGRATION_JOB_ATTEMPTS,
          jobBackoffMs: env.MIGRATION_JOB_BACKOFF_MS,
        }),
        ...(api ? [MigrationApiModule] : []),
        ...(worker ? [MigrationWorkerModule.forRoot(env)] : []),
      ],
    };
  }
}
