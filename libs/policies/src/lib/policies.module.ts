import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PolicyChanges } from './policy-changes';
import { RateLimitPolicy } from './rate-limit-policy.entity';
import { RateLimitPolicyRepository } from './repositories/rate-limit-policy.repository';
import { RateLimitPolicyService } from './rate-limit-policy.service';

/** Needs the app's global persistence and Redis modules. */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitPolicy])],
  providers: [RateLimitPolicyRepository, RateLimitPolicyService, PolicyChanges],
  exports: [RateLimitPolicyRepository, RateLimitPolicyService, PolicyChanges],
})
export class PoliciesModule {}
