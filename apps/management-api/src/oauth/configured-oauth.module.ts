import { OAuthModule, OAuthSettings } from '@acme/oauth';
import { ManagementEnv, publicBaseUrl } from '../config/env';

function oauthSettings(env: ManagementEnv): OAuthSettings {
  const base = publicBaseUrl(env);
  const bootstrapId = env.MANAGEMENT_BOOTSTRAP_CLIENT_ID;
  const bootstrapSecret = env.MANAGEMENT_BOOTSTRAP_CLIENT_SECRET;
  return {
    issuer: `${base}/`,
    managementAudience: `${base}/api/v2/`,
    defaultAudience: env.MANAGEMENT_DEFAULT_AUDIENCE,
    tokenTtlSeconds: env.MANAGEMENT_TOKEN_TTL_SECONDS,
    signingKeyPem: env.MANAGEMENT_SIGNING_KEY,
    clientSecretKey: env.MANAGEMENT_CLIENT_SECRET_KEY,
    bootstrapClient:
      bootstrapId && bootstrapSecret ? { clientId: bootstrapId, clientSecret: bootstrapSecret } : undefined,
    credentialStaleMaxSeconds: env.MANAGEMENT_CREDENTIAL_STALE_MAX_S,
  };
}

/**
 * The app's one configured OAuthModule. Every module that uses OAuth services imports this same object; Nest
 * keys a dynamic module by its object, so they all share one instance (one signing key store, one cache).
 */
export const ConfiguredOAuthModule = OAuthModule.forRootAsync({ inject: [ManagementEnv], useFactory: oauthSettings });
