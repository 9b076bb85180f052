import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { RateLimitModule, ServiceCoreModule } from '@acme/platform-http';
import { EventPartitionMaintenance, EventPartitionSettings, RUM_MIGRATIONS, RUM_SCHEMA, RumModule } from '@acme/rum';
import { AdminController } from './admin/admin.controller';
import { AccountRateLimitPolicy } from './auth/account-rate-limit.policy';
import { AppKeyGuard } from './auth/app-key.guard';
import { ApplicationAccessGuard } from './auth/application-access.guard';
import { ClientTokenGuard } from './auth/client-token.guard';
import { RumEnv } from './config/env';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { IngestController } from './ingest/ingest.controller';
import { RulesController } from './ingestion-rules/rules.controller';
import { EventPartitionScheduler } from './maintenance/event-partition.scheduler';
import { HistoryController } from './rule-sets/history.controller';
import { rumService } from './service';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({ service: rumService, envClass: RumEnv, source, schema: RUM_SCHEMA, migrations: RUM_MIGRATIONS }),
        RumModule,
        RateLimitModule.withPolicy(AccountRateLimitPolicy),
      ],
      controllers: [RulesController, HistoryController, IngestController, AdminController],
      providers: [
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        AppKeyGuard,
        ApplicationAccessGuard,
        ClientTokenGuard,
        {
          provide: EventPartitionSettings,
          inject: [RumEnv],
          useFactory: (env: RumEnv): EventPartitionSettings => ({ retentionDays: env.RUM_EVENT_RETENTION_DAYS, aheadDays: env.RUM_EVENT_PARTITIONS_AHEAD_DAYS }),
        },
        EventPartitionMaintenance,
        EventPartitionScheduler,
      ],
    };
  }
}
