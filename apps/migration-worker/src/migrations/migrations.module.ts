import { Module } from '@nestjs/common';
import { RateLimitModule } from '@acme/platform-http';
import { ConfiguredDocumentMigrationModule } from '../configured-document-migration.module';
import { MigrationsController } from './migrations.controller';
import { ServiceAuthGuard } from './service-auth.guard';
import { WorkspaceRateLimitPolicy } from './workspace-rate-limit.policy';

/** The public migration routes, authenticated per workspace and limited per workspace. */
@Module({
  imports: [ConfiguredDocumentMigrationModule, RateLimitModule.withPolicy(WorkspaceRateLimitPolicy)],
  controllers: [MigrationsController],
  providers: [ServiceAuthGuard],
})
export class MigrationsModule {}
