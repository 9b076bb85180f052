import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { RumEnv } from './config/env';
import { rumService } from './service';

export const RUM_SCHEMA = 'rum';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceCoreModule.forRoot({ service: rumService, envClass: RumEnv, source, schema: RUM_SCHEMA, migrations: [] })],
    };
  }
}
