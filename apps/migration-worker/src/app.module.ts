import { DynamicModule, Module } from '@nestjs/common';
import { createEnvValidator } from '@acme/platform-config';
import { EnvelopeModule, ServiceCoreModule } from '@acme/platform-http';
import { QueueModule } from '@acme/platform-queue';
import { MIGRATION_SCHEMA_MIGRATIONS } from '@acme/document-migration';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';
import { AdminModule } from './admin/admin.module';
import { MigrationEnv } from './config/env';
import { ConfiguredDocumentMigrationModule } from './configured-document-migration.module';
import { MigrationEnvelope } from './http/envelope';
import { MigrationsModule } from './migrations/migrations.module';
import { MigrationWorkerModule } from './processors/migration-worker.module';
import { migrationService } from './service';

/** Public and operator routes (MIGRATION_ROLE api or all). */
@Module({ imports: [MigrationsModule, AdminModule] })
export class MigrationApiModule {}

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    // Validated once, here: the role decides which modules exist.
    const env = createEnvValidator(MigrationEnv)(source);
    const api = env.MIGRATION_ROLE !== 'worker';
    const worker = env.MIGRATION_ROLE !== 'api';
    return ServiceCoreModule.forApp(
      AppModule,
      {
        service: migrationService,
        envClass: MigrationEnv,
        env,
        schema: MIGRATION_SCHEMA,
        migrations: MIGRATION_SCHEMA_MIGRATIONS,
      },
      [
        EnvelopeModule.withEnvelope(MigrationEnvelope),
        QueueModule.forRoot(),
        ConfiguredDocumentMigrationModule,
        ...(api ? [MigrationApiModule] : []),
        ...(worker ? [MigrationWorkerModule.forRoot(env)] : []),
      ],
    );
  }
}
