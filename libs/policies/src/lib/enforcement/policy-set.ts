import { isCimdClientId } from '../policy-rules';
import { EnforceablePolicy, EnforcedClient, OAUTH_AUTHENTICATION_API } from './enforceable-policy';

export type PolicyLevel = 'client' | 'group' | 'default';

export interface ResolvedPolicy {
  policy: EnforceablePolicy;
  level: PolicyLevel;
  /**
   * The limiter bucket: `client_id:` and `default` policies count each client separately, a group policy is
   * one pooled bucket. The policy id is part of it, so a PATCH keeps the bucket and a new policy starts fresh.
   */
  bucketKey: string;
}

const CLIENT_PREFIX = 'client_id:';

/** An immutable index of the policies of one resource, answering "which policy governs this client". */
export class PolicySet {
  private constructor(
    readonly size: number,
    private readonly byClientId: ReadonlyMap<string, EnforceablePolicy>,
    private readonly cimdClients: EnforceablePolicy | undefined,
    private readonly thirdPartyClients: EnforceablePolicy | undefined,
    private readonly fallback: EnforceablePolicy | undefined,
  ) {}

  static readonly empty = PolicySet.from([]);

  static from(policies: readonly EnforceablePolicy[], resource = OAUTH_AUTHENTICATION_API): PolicySet {
    const byClientId = new Map<string, EnforceablePolicy>();
    let cimd: EnforceablePolicy | undefined;
    let thirdParty: EnforceablePolicy | undefined;
    let fallback: EnforceablePolicy | undefined;
    let size = 0;
    for (const policy of policies) {
      if (policy.resource !== resource || policy.consumer !== 'client') continue;
      const selector = policy.consumerSelector;
      size += 1;
      // resource + consumer + selector is unique in storage, so each slot holds at most one policy.
      if (selector.startsWith(CLIENT_PREFIX)) byClientId.set(selector.slice(CLIENT_PREFIX.length), policy);
      else if (selector === 'cimd_clients') cimd = policy;
      else if (selector === 'third_party_clients') thirdParty = policy;
      else if (selector === 'default') fallback = policy;
      else size -= 1;
    }
    return new PolicySet(size, byClientId, cimd, thirdParty, fallback);
  }

  /** Auth0's hierarchy: exact client, then cimd_clients, then third_party_clients, then default; else none. */
  resolve(client: EnforcedClient): ResolvedPolicy | undefined {
    const exact = this.byClientId.get(client.clientId);
    if (exact) return { policy: exact, level: 'client', bucketKey: `${exact.id}:c:${client.clientId}` };
    if (this.cimdClients && isCimdClientId(client.clientId)) return group(this.cimdClients);
    if (this.thirdPartyClients && !client.isFirstParty) return group(this.thirdPartyClients);
    if (this.fallback)
      return { policy: this.fallback, level: 'default', bucketKey: `${this.fallback.id}:c:${client.clientId}` };
    return undefined;
  }
}

function group(policy: EnforceablePolicy): ResolvedPolicy {
  return { policy, level: 'group', bucketKey: `${policy.id}:g` };
}
