import { Module } from '@nestjs/common';
import { RateLimitModule } from '@acme/platform-http';
import { RumModule } from '@acme/rum';
import { AccountRateLimitPolicy } from './account-rate-limit.policy';
import { AppKeyGuard } from './app-key.guard';
import { ApplicationAccessGuard } from './application-access.guard';
import { ClientTokenGuard } from './client-token.guard';

const rateLimit = RateLimitModule.withPolicy(AccountRateLimitPolicy);

/** The guards several features share, and the account rate limit (RateLimitGuard) they are limited by. */
@Module({
  imports: [RumModule, rateLimit],
  providers: [AppKeyGuard, ApplicationAccessGuard, ClientTokenGuard],
  exports: [AppKeyGuard, ApplicationAccessGuard, ClientTokenGuard, rateLimit],
})
export class AuthModule {}
