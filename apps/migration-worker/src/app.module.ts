import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { MigrationEnv } from './config/env';
import { migrationService } from './service';

export const MIGRATION_SCHEMA = 'migration';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceCoreModule.forRoot({ service: migrationService, envClass: MigrationEnv, source, schema: MIGRATION_SCHEMA, migrations: [] })],
    };
  }
}
