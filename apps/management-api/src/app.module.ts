import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { ManagementEnv } from './config/env';
import { managementService } from './service';

export const MANAGEMENT_SCHEMA = 'management';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceCoreModule.forRoot({ service: managementService, envClass: ManagementEnv, source, schema: MANAGEMENT_SCHEMA, migrations: [] })],
    };
  }
}
