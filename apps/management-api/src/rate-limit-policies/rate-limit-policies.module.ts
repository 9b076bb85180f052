import { Module } from '@nestjs/common';
import { PoliciesModule } from '@acme/policies';
import { ManagementAuthGuard } from '../auth/scopes.guard';
import { RateLimitPoliciesController } from './rate-limit-policies.controller';

@Module({ imports: [PoliciesModule], controllers: [RateLimitPoliciesController], providers: [ManagementAuthGuard] })
export class RateLimitPoliciesModule {}
