import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { CommunityEnv } from './config/env';
import { communityService } from './service';

export const COMMUNITY_SCHEMA = 'community';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceCoreModule.forRoot({ service: communityService, envClass: CommunityEnv, source, schema: COMMUNITY_SCHEMA, migrations: [] })],
    };
  }
}
