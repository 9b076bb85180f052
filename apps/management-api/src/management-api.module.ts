import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { PoliciesModule } from '@acme/policies';
import { RateLimitModule } from '@acme/platform-http';
import { ManagementGateMiddleware, ManagementRateLimitPolicy } from './auth/management-gate.middleware';
import { AccessTokenVerifier } from './auth/management-auth';
import { ManagementAuthGuard } from './auth/scopes.guard';
import { ClientGrantsController } from './clients/client-grants.controller';
import { ClientsController } from './clients/clients.controller';
import { RateLimitPoliciesController } from './rate-limit-policies/rate-limit-policies.controller';
import { SigningKeysController } from './keys/signing-keys.controller';
import { ClientCredentialsController } from './clients/client-credentials.controller';
import { ConfiguredOAuthModule } from './oauth/configured-oauth.module';

/** Everything under /api/v2: token check and the API's own rate limit first, then the routes. */
@Module({
  imports: [ConfiguredOAuthModule, PoliciesModule, RateLimitModule.withPolicy(ManagementRateLimitPolicy)],
  controllers: [RateLimitPoliciesController, ClientsController, ClientGrantsController, ClientCredentialsController, SigningKeysController],
  providers: [
    AccessTokenVerifier,
    ManagementGateMiddleware,
    ManagementAuthGuard,
  ],
})
export class ManagementApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ManagementGateMiddleware).forRoutes({ path: 'api/v2', method: RequestMethod.ALL }, { path: 'api/v2/*path', method: RequestMethod.ALL });
  }
}
