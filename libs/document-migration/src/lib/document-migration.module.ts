import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
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

/** The document-migration domain. Needs the app's BullMQ root (QueueModule) and Postgres (ServiceCoreModule). */
@Module({})
export class DocumentMigrationModule {
  static forRoot(settings: MigrationSettings): DynamicModule {
    return {
      module: DocumentMigrationModule,
      global: true,
      imports: [BullModule.registerQueue({ name: MIGRATION_QUEUE })],
      providers: [
        { provide: MigrationSettings, useValue: settings },
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
      exports: [MigrationSettings, WorkspaceService, MigrationService, MigrationQueue, MigrationRunner, MigrationReconciler, BullModule],
    };
  }
}
