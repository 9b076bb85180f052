import { configurePasswordHashing } from '@acme/platform-auth';
import { CommunityModule } from '@acme/community';
import { CommunityPushModule } from '@acme/community-push';
import { CommunityVerificationModule } from '@acme/community-verification';
import { CommunityEnv } from './config/env';

// The app's configured domain modules, one object each: every module that uses their services imports the same
// object, and Nest keys a dynamic module by its object, so all of them share one instance.

export const ConfiguredCommunityModule = CommunityModule.forRootAsync({
  inject: [CommunityEnv],
  useFactory: (env: CommunityEnv) => {
    // The hashing gate is process-wide (as libuv's pool is), so its bound is set here, once per app start.
    configurePasswordHashing({ maxQueued: env.PASSWORD_HASH_MAX_QUEUED });
    return {
      authSecret: env.COMMUNITY_AUTH_SECRET,
      accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
      issuer: 'community-api',
      signInAttemptsPerMinute: env.SIGN_IN_ATTEMPTS_PER_MINUTE,
    };
  },
});

export const ConfiguredVerificationModule = CommunityVerificationModule.forRootAsync({
  imports: [ConfiguredCommunityModule],
  inject: [CommunityEnv],
  useFactory: (env: CommunityEnv) => ({
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    attempts: {
      perMinute: env.VERIFICATION_ATTEMPTS_PER_MINUTE,
      perHour: env.VERIFICATION_ATTEMPTS_PER_HOUR,
      perProjectPerHour: env.VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR,
    },
  }),
});

export const ConfiguredPushModule = CommunityPushModule.forRootAsync({
  imports: [ConfiguredCommunityModule],
  inject: [CommunityEnv],
  useFactory: (env: CommunityEnv) => ({
    vapidPublicKey: env.VAPID_PUBLIC_KEY,
    vapidPrivateKey: env.VAPID_PRIVATE_KEY,
    vapidSubject: env.VAPID_SUBJECT,
    allowInsecureEndpoints: env.PUSH_ALLOW_INSECURE_ENDPOINTS,
    allowPrivateEndpoints: env.PUSH_ALLOW_PRIVATE_ENDPOINTS,
    timeoutMs: env.PUSH_TIMEOUT_MS,
  }),
});
