import { Module } from '@nestjs/common';
import { TokenExchange, TokenGate } from '@acme/oauth';
import { PolicyEnforcer } from '@acme/policies';
import { ConfiguredOAuthModule } from './configured-oauth.module';
import { TokenEnforcementModule } from './enforcement/token-enforcement.module';
import { TokenController } from './token.controller';

/** The public OAuth routes; the token exchange's gate is the tenant's rate-limit policies. */
@Module({
  imports: [ConfiguredOAuthModule, TokenEnforcementModule],
  controllers: [TokenController],
  providers: [
    { provide: TokenGate, inject: [PolicyEnforcer], useFactory: (enforcer: PolicyEnforcer): TokenGate => enforcer },
    TokenExchange,
  ],
})
export class OAuthHttpModule {}
