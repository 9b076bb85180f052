import { DynamicModule, Module } from '@nestjs/common';
import { COMMUNITY_MIGRATIONS } from '@acme/community';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';
import { EVENTS_MIGRATIONS } from '@acme/events';
import { PUSH_MIGRATIONS } from '@acme/community-push';
import { VERIFICATION_MIGRATIONS } from '@acme/community-verification';
import { ServiceCoreModule } from '@acme/platform-http';
import { CommunityEnv } from './config/env';
import {
  ConfiguredCommunityModule,
  ConfiguredPushModule,
  ConfiguredVerificationModule,
} from './configured-domain.module';
import { EventsFeatureModule } from './events/events-feature.module';
import { EmailVerificationModule } from './email-verification/email-verification.module';
import { ProjectsModule } from './projects/projects.module';
import { PushDevicesModule } from './push-devices/push-devices.module';
import { communityService } from './service';
import { SpacesModule } from './spaces/spaces.module';
import { UsersModule } from './users/users.module';

/** The service's schema migrations, one list for the `community` schema; TypeORM runs them by class-name timestamp. */
export const COMMUNITY_API_MIGRATIONS = [
  ...COMMUNITY_MIGRATIONS,
  ...VERIFICATION_MIGRATIONS,
  ...PUSH_MIGRATIONS,
  ...EVENTS_MIGRATIONS,
];

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return ServiceCoreModule.forApp(
      AppModule,
      {
        service: communityService,
        envClass: CommunityEnv,
        source,
        schema: COMMUNITY_SCHEMA,
        migrations: COMMUNITY_API_MIGRATIONS,
      },
      [
        ConfiguredCommunityModule,
        ConfiguredVerificationModule,
        ConfiguredPushModule,
        ProjectsModule,
        UsersModule,
        EventsFeatureModule,
        SpacesModule,
        EmailVerificationModule,
        PushDevicesModule,
      ],
    );
  }
}
