import { DynamicModule, InjectionToken, Module, ModuleMetadata } from '@nestjs/common';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { PoliciesModule } from '../policies.module';
import { EnforceablePolicySource, StoredPolicySource } from './enforceable-policy';
import { EnforcementPolicyCache } from './policy-cache';
import { PolicyEnforcementSettings } from './policy-enforcement.settings';
import { PolicyEnforcer } from './policy-enforcer';

export interface PolicyEnforcementModuleOptions {
  imports?: ModuleMetadata['imports'];
  inject?: InjectionToken[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => PolicyEnforcementSettings;
}

/** `PolicyEnforcer` for the token endpoint. Needs the app's global persistence, Redis and metrics modules. */
@Module({})
export class PolicyEnforcementModule {
  static forRootAsync(options: PolicyEnforcementModuleOptions): DynamicModule {
    return {
      module: PolicyEnforcementModule,
      imports: [PoliciesModule, RateLimitingModule, ...(options.imports ?? [])],
      providers: [
        { provide: PolicyEnforcementSettings, inject: options.inject ?? [], useFactory: options.useFactory },
        { provide: EnforceablePolicySource, useClass: StoredPolicySource },
        EnforcementPolicyCache,
        PolicyEnforcer,
      ],
      exports: [PolicyEnforcer, EnforcementPolicyCache],
    };
  }
}
