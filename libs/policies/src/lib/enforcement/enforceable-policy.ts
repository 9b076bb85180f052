/** The resource the enforcer protects (the spec's only `resource` value). */
export const OAUTH_AUTHENTICATION_API = 'oauth_authentication_api';

export type EnforcementConfiguration =
  | { action: 'allow' }
  | { action: 'block' | 'log'; limit: number }
  | { action: 'redirect'; limit: number; redirect_uri: string };

/** What enforcement needs of a stored policy; the policy repository's rows map onto it. */
export interface EnforceablePolicy {
  id: string;
  resource: string;
  consumer: string;
  consumerSelector: string;
  configuration: EnforcementConfiguration;
}

/** The authenticated caller of the token endpoint. */
export interface EnforcedClient {
  clientId: string;
  isFirstParty: boolean;
}

/**
 * Where the enforcer reads policies from and hears about changes. Implemented over the policy repository
 * and `PolicyChanges`; a port so the cache can be tested without the HTTP API.
 */
export abstract class EnforceablePolicySource {
  abstract loadAll(): Promise<EnforceablePolicy[]>;
  /** Resolves once the subscription is live, so a change published afterwards is never missed. */
  abstract onChanged(handler: () => void): Promise<unknown>;
}

/** A client identified by its metadata document (CIMD) has an `https://` URI as its id. */
export function isCimdClientId(clientId: string): boolean {
  return /^https:\/\//i.test(clientId);
}
