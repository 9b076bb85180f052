import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { RateLimitModule } from '@acme/platform-http';
import { ManagementGateMiddleware, ManagementRateLimitPolicy } from './auth/management-gate.middleware';
import { AccessTokenVerifier } from './auth/management-auth';
import { ClientsModule } from './clients/clients.module';
import { KeysModule } from './keys/keys.module';
import { ConfiguredOAuthModule } from './oauth/configured-oauth.module';
import { RateLimitPoliciesModule } from './rate-limit-policies/rate-limit-policies.module';

/**
 * Everything under /api/v2: token check and the API's own rate limit first (configured once here, so unknown
 * /api/v2 paths are gated too), then the feature modules' routes.
 */
@Module({
  imports: [
    ConfiguredOAuthModule,
    RateLimitModule.withPolicy(ManagementRateLimitPolicy),
    RateLimitPoliciesModule,
    ClientsModule,
    KeysModule,
  ],
  providers: [AccessTokenVerifier, ManagementGateMiddleware],
})
export class ManagementApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(ManagementGateMiddleware)
      .forRoutes({ path: 'api/v2', method: RequestMethod.ALL }, { path: 'api/v2/*path', method: RequestMethod.ALL });
  }
}
