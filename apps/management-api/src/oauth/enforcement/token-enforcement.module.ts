import { Module } from '@nestjs/common';
import { PolicyEnforcementModule } from '@acme/policies';
import { ManagementEnv } from '../../config/env';

/** Rate-limit policy enforcement for `/oauth/token`, tuned from the env. */
@Module({
  imports: [
    PolicyEnforcementModule.forRootAsync({
      inject: [ManagementEnv],
      useFactory: (env: ManagementEnv) => ({
        limiterTimeoutMs: env.MANAGEMENT_POLICY_LIMITER_TIMEOUT_MS,
        reloadIntervalSeconds: env.MANAGEMENT_POLICY_CACHE_RELOAD_SECONDS,
      }),
    }),
  ],
  exports: [PolicyEnforcementModule],
})
export class TokenEnforcementModule {}
