import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { PoliciesModule } from '../policies.module';
import { EnforceablePolicySource, StoredPolicySource } from './enforceable-policy';
import { EnforcementPolicyCache } from './policy-cache';
import { PolicyEnforcementSettings } from './policy-enforcement.settings';
import { PolicyEnforcer } from './policy-enforcer';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<PolicyEnforcementSettings>()
  .setClassMethodName('forRoot')
  .build();

/** `PolicyEnforcer` for the token endpoint. Needs the app's global persistence, Redis and metrics modules. */
@Module({
  imports: [PoliciesModule, RateLimitingModule],
  providers: [
    { provide: PolicyEnforcementSettings, useExisting: MODULE_OPTIONS_TOKEN },
    { provide: EnforceablePolicySource, useClass: StoredPolicySource },
    EnforcementPolicyCache,
    PolicyEnforcer,
  ],
  exports: [PolicyEnforcer, EnforcementPolicyCache],
})
export class PolicyEnforcementModule extends ConfigurableModuleClass {}
