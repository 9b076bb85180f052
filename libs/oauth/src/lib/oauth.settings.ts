/** What the app configures (libs never read env). */
export abstract class OAuthSettings {
  /** `iss` of issued tokens: `{PUBLIC_URL}/`. */
  abstract readonly issuer: string;
  /** The management API audience: `{PUBLIC_URL}/api/v2/`. */
  abstract readonly managementAudience: string;
  /** The audience of a token request that names none (Auth0's tenant default audience); unset: required. */
  abstract readonly defaultAudience?: string;
  abstract readonly tokenTtlSeconds: number;
  /** PEM of an RSA private key; when absent one key is generated once and kept in the database. */
  abstract readonly signingKeyPem?: string;
  /** Server-side HMAC key under which client secrets are digested. */
  abstract readonly clientSecretKey: string;
  abstract readonly bootstrapClient?: { clientId: string; clientSecret: string };
  /**
   * How long past its reload age a cached client may keep serving token requests while reloading it fails
   * (the database is down): stale-if-error, seconds; 0 turns it off. Revocations still apply at once.
   */
  abstract readonly credentialStaleMaxSeconds?: number;
}

/** Every scope of the management API; the bootstrap client holds them all. */
export const MANAGEMENT_SCOPES = [
  'read:clients',
  'create:clients',
  'update:clients',
  'update:client_keys',
  'read:client_credentials',
  'create:client_credentials',
  'delete:client_credentials',
  'delete:clients',
  'read:client_grants',
  'create:client_grants',
  'update:client_grants',
  'delete:client_grants',
  'read:rate_limit_policies',
  'create:rate_limit_policies',
  'update:rate_limit_policies',
  'delete:rate_limit_policies',
  'read:signing_keys',
  'create:signing_keys',
  'update:signing_keys',
] as const;
export type ManagementScope = (typeof MANAGEMENT_SCOPES)[number];

export const GRANT_TYPES = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
  'implicit',
  'password',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
