import { DynamicModule, Module } from '@nestjs/common';
import { COMMUNITY_MIGRATIONS, COMMUNITY_SCHEMA, CommunityModule } from '@acme/community';
import { EVENTS_MIGRATIONS } from '@acme/events';
import { CommunityPushModule, PUSH_MIGRATIONS } from '@acme/community-push';
import { CommunityVerificationModule, VERIFICATION_MIGRATIONS } from '@acme/community-verification';
import { ServiceCoreModule } from '@acme/platform-http';
import { CommunityEnv } from './config/env';
import { EventsFeatureModule } from './events/events-feature.module';
import { EmailVerificationModule } from './email-verification/email-verification.module';
import { ProjectsModule } from './projects/projects.module';
import { PushDevicesModule } from './push-devices/push-devices.module';
import { communityService } from './service';
import { SpacesModule } from './spaces/spaces.module';
import { UsersModule } from './users/users.module';

/** The service's schema migrations, one list for the `community` schema; TypeORM runs them by class-name timestamp. */
export const COMMUNITY_API_MIGRATIONS = [...COMMUNITY_MIGRATIONS, ...VERIFICATION_MIGRATIONS, ...PUSH_MIGRATIONS, ...EVENTS_MIGRATIONS];

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          service: communityService,
          envClass: CommunityEnv,
          source,
          schema: COMMUNITY_SCHEMA,
          migrations: COMMUNITY_API_MIGRATIONS,
        }),
        CommunityModule.forRootAsync({
          inject: [CommunityEnv],
          useFactory: (env: CommunityEnv) => ({
            authSecret: env.COMMUNITY_AUTH_SECRET,
            accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
            refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
            issuer: 'community-api',
            signInAttemptsPerMinute: env.SIGN_IN_ATTEMPTS_PER_MINUTE,
          }),
        }),
        CommunityVerificationModule.forRootAsync({
          inject: [CommunityEnv],
          useFactory: (env: CommunityEnv) => ({
            mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
            attempts: { perMinute: env.VERIFICATION_ATTEMPTS_PER_MINUTE, perHour: env.VERIFICATION_ATTEMPTS_PER_HOUR, perProjectPerHour: env.VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR },
          }),
        }),
        CommunityPushModule.forRootAsync({
          inject: [CommunityEnv],
          useFactory: (env: CommunityEnv) => ({
            vapidPublicKey: env.VAPID_PUBLIC_KEY,
            vapidPrivateKey: env.VAPID_PRIVATE_KEY,
            vapidSubject: env.VAPID_SUBJECT,
            allowInsecureEndpoints: env.PUSH_ALLOW_INSECURE_ENDPOINTS,
            allowPrivateEndpoints: env.PUSH_ALLOW_PRIVATE_ENDPOINTS,
            timeoutMs: env.PUSH_TIMEOUT_MS,
          }),
        }),
        ProjectsModule,
        UsersModule,
        EventsFeatureModule,
        SpacesModule,
        EmailVerificationModule,
        PushDevicesModule,
      ],
    };
  }
}
