import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { PoliciesModule } from '@acme/policies';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { ManagementGateMiddleware, ManagementRateLimitSettings } from './auth/management-gate.middleware';
import { ManagementEnv } from './config/env';
import { AccessTokenVerifier } from './auth/management-auth';
import { ManagementAuthGuard } from './auth/scopes.guard';
import { ClientGrantsController } from './clients/client-grants.controller';
import { ClientsController } from './clients/clients.controller';
import { RateLimitPoliciesController } from './rate-limit-policies/rate-limit-policies.controller';
import { SigningKeysController } from './keys/signing-keys.controller';
import { ClientCredentialsController } from './clients/client-credentials.controller';

/** Everything under /api/v2: token check and the API's own rate limit first, then the routes. */
@Module({
  imports: [PoliciesModule, RateLimitingModule],
  controllers: [RateLimitPoliciesController, ClientsController, ClientGrantsController, ClientCredentialsController, SigningKeysController],
  providers: [
    AccessTokenVerifier,
    ManagementGateMiddleware,
    ManagementAuthGuard,
    {
      provide: ManagementRateLimitSettings,
      inject: [ManagementEnv],
      useFactory: (env: ManagementEnv): ManagementRateLimitSettings => ({
        perSecond: env.MANAGEMENT_RATE_LIMIT_PER_SECOND,
        burst: env.MANAGEMENT_RATE_LIMIT_BURST ?? env.MANAGEMENT_RATE_LIMIT_PER_SECOND,
      }),
    },
  ],
})
export class ManagementApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ManagementGateMiddleware).forRoutes({ path: 'api/v2', method: RequestMethod.ALL }, { path: 'api/v2/*path', method: RequestMethod.ALL });
  }
}
