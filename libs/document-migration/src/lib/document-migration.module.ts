import { BullModule } from '@nestjs/bullmq';
import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { MigrationMetrics } from './migration.metrics';
import { MIGRATION_QUEUE, MigrationQueue } from './migration.queue';
import { MigrationReconciler } from './migration.reconciler';
import { MigrationRunner } from './migration.runner';
import { MigrationService } from './migration.service';
import { MigrationSettings } from './migration.settings';
import { DocumentRepository } from './repositories/document.repository';
import { MigrationSliceRepository } from './repositories/migration-slice.repository';
import { MigrationRepository } from './repositories/migration.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import { WorkspaceRepository } from './repositories/workspace.repository';
import { WorkspaceService } from './workspace.service';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<MigrationSettings>()
  .setClassMethodName('forRoot')
  .build();

/**
 * The document-migration domain. Needs the app's BullMQ root (QueueModule) and Postgres (ServiceCoreModule).
 * Not global: the app configures it once (`forRoot`/`forRootAsync`) and every module using its services imports
 * that same object.
 */
@Module({
  imports: [BullModule.registerQueue({ name: MIGRATION_QUEUE })],
  providers: [
    { provide: MigrationSettings, useExisting: MODULE_OPTIONS_TOKEN },
    WorkspaceRepository,
    OrganizationRepository,
    DocumentRepository,
    MigrationRepository,
    MigrationSliceRepository,
    WorkspaceService,
    MigrationService,
    MigrationQueue,
    MigrationRunner,
    MigrationReconciler,
    MigrationMetrics,
  ],
  exports: [
    MigrationSettings,
    WorkspaceService,
    MigrationService,
    MigrationQueue,
    MigrationRunner,
    MigrationReconciler,
    BullModule,
  ],
})
export class DocumentMigrationModule extends ConfigurableModuleClass {}
