import { DynamicModule, Module } from '@nestjs/common';
import { createEnvValidator } from '@acme/platform-config';
import { RateLimitModule, ServiceCoreModule } from '@acme/platform-http';
import { QueueModule } from '@acme/platform-queue';
import { MIGRATION_SCHEMA, MIGRATION_SCHEMA_MIGRATIONS } from '@acme/document-migration';
import { AdminController } from './admin/admin.controller';
import { QueueBoardModule } from './admin/queue-board.module';
import { MigrationEnv } from './config/env';
import { ConfiguredDocumentMigrationModule } from './configured-document-migration.module';
import { MigrationsController } from './migrations/migrations.controller';
import { ServiceAuthGuard } from './migrations/service-auth.guard';
import { WorkspaceRateLimitPolicy } from './migrations/workspace-rate-limit.policy';
import { MigrationWorkerModule } from './processors/migration-worker.module';
import { migrationService } from './service';

/** Public and operator routes (MIGRATION_ROLE api or all). */
@Module({
  imports: [ConfiguredDocumentMigrationModule, QueueBoardModule, RateLimitModule.withPolicy(WorkspaceRateLimitPolicy)],
  controllers: [MigrationsController, AdminController],
  providers: [ServiceAuthGuard],
})
export class MigrationApiModule {}

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    // Validated once, here: the role decides which modules exist.
    const env = createEnvValidator(MigrationEnv)(source);
    const api = env.MIGRATION_ROLE !== 'worker';
    const worker = env.MIGRATION_ROLE !== 'api';
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({ service: migrationService, envClass: MigrationEnv, env, schema: MIGRATION_SCHEMA, migrations: MIGRATION_SCHEMA_MIGRATIONS }),
        QueueModule.forRoot(),
        ConfiguredDocumentMigrationModule,
        ...(api ? [MigrationApiModule] : []),
        ...(worker ? [MigrationWorkerModule.forRoot(env)] : []),
      ],
    };
  }
}
