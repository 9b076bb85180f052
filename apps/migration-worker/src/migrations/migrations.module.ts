import { Module } from '@nestjs/common';
import { RateLimitModule } from '@acme/platform-http';
import { MigrationsController } from './migrations.controller';
import { ServiceAuthGuard } from './service-auth.guard';
import { WorkspaceRateLimitPolicy } from './workspace-rate-limit.policy';

/** The public migration routes, authenticated per workspace and limited per workspace. */
@Module({
  imports: [RateLimitModule.withPolicy(WorkspaceRateLimitPolicy)],
  controllers: [MigrationsController],
  providers: [ServiceAuthGuard],
})
export class MigrationsModule {}
