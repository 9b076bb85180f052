import { Injectable } from '@nestjs/common';
import { PolicyChanges } from '../policy-changes';
import { PolicyConfiguration } from '../policy-rules';
import { RateLimitPolicyRepository } from '../repositories/rate-limit-policy.repository';

/** The resource the enforcer protects (the spec's only `resource` value). */
export const OAUTH_AUTHENTICATION_API = 'oauth_authentication_api';

/** What enforcement needs of a stored policy (a `RateLimitPolicy` is one). */
export interface EnforceablePolicy {
  id: string;
  resource: string;
  consumer: string;
  consumerSelector: string;
  configuration: PolicyConfiguration;
}

/** The authenticated caller of the token endpoint. */
export interface EnforcedClient {
  clientId: string;
  isFirstParty: boolean;
}

/** Where the enforcer reads policies from and hears about changes (a port, so the cache tests need no HTTP API). */
export abstract class EnforceablePolicySource {
  abstract loadAll(): Promise<EnforceablePolicy[]>;
  /** Resolves once the subscription is live, so a change published afterwards is never missed. */
  abstract onChanged(handler: () => void): Promise<unknown>;
  /**
   * A cheap value that changes whenever the policies change, so the periodic backstop reload can skip an
   * unchanged set; undefined when the source cannot tell (then every backstop tick reloads).
   */
  async fingerprint(): Promise<string | undefined> {
    return undefined;
  }
}

/** The policies table and the `rate-limit-policies:changed` notifications. */
@Injectable()
export class StoredPolicySource extends EnforceablePolicySource {
  constructor(
    private readonly repository: RateLimitPolicyRepository,
    private readonly changes: PolicyChanges,
  ) {
    super();
  }

  loadAll(): Promise<EnforceablePolicy[]> {
    return this.repository.findAllByResource(OAUTH_AUTHENTICATION_API);
  }

  onChanged(handler: () => void): Promise<unknown> {
    return this.changes.onChanged(handler);
  }

  override fingerprint(): Promise<string> {
    return this.repository.fingerprintByResource(OAUTH_AUTHENTICATION_API);
  }
}
