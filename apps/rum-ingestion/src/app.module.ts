import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { EnvelopeModule, ServiceCoreModule } from '@acme/platform-http';
import { RUM_MIGRATIONS } from '@acme/rum';
import { RUM_SCHEMA } from '@acme/rum-schema';
import { AdminModule } from './admin/admin.module';
import { RumEnv } from './config/env';
import { RequestIdHeaderInterceptor, RumEnvelope } from './http/envelope.interceptor';
import { IngestModule } from './ingest/ingest.module';
import { IngestionRulesModule } from './ingestion-rules/ingestion-rules.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { RuleSetsModule } from './rule-sets/rule-sets.module';
import { rumService } from './service';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return ServiceCoreModule.forApp(
      AppModule,
      { service: rumService, envClass: RumEnv, source, schema: RUM_SCHEMA, migrations: RUM_MIGRATIONS },
      [
        EnvelopeModule.withEnvelope(RumEnvelope),
        IngestionRulesModule,
        RuleSetsModule,
        IngestModule,
        AdminModule,
        MaintenanceModule,
      ],
      [{ provide: APP_INTERCEPTOR, useClass: RequestIdHeaderInterceptor }],
    );
  }
}
