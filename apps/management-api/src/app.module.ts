import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { MANAGEMENT_SCHEMA, OAUTH_MIGRATIONS, OAuthModule, OAuthSettings } from '@acme/oauth';
import { POLICIES_MIGRATIONS, PoliciesModule } from '@acme/policies';
import { ManagementEnv, publicBaseUrl } from './config/env';
import { ManagementApiModule } from './management-api.module';
import { OAuthHttpModule } from './oauth/oauth-http.module';
import { managementService } from './service';

/** The service's schema migrations, one list for the `management` schema; TypeORM runs them by class-name timestamp. */
export const MANAGEMENT_API_MIGRATIONS = [...POLICIES_MIGRATIONS, ...OAUTH_MIGRATIONS];

function oauthSettings(env: ManagementEnv): OAuthSettings {
  const base = publicBaseUrl(env);
  const bootstrapId = env.MANAGEMENT_BOOTSTRAP_CLIENT_ID;
  const bootstrapSecret = env.MANAGEMENT_BOOTSTRAP_CLIENT_SECRET;
  return {
    issuer: `${base}/`,
    managementAudience: `${base}/api/v2/`,
    tokenTtlSeconds: env.MANAGEMENT_TOKEN_TTL_SECONDS,
    signingKeyPem: env.MANAGEMENT_SIGNING_KEY,
    clientSecretKey: env.MANAGEMENT_CLIENT_SECRET_KEY,
    bootstrapClient: bootstrapId && bootstrapSecret ? { clientId: bootstrapId, clientSecret: bootstrapSecret } : undefined,
    credentialStaleMaxSeconds: env.MANAGEMENT_CREDENTIAL_STALE_MAX_S,
  };
}

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          service: managementService,
          envClass: ManagementEnv,
          source,
          schema: MANAGEMENT_SCHEMA,
          migrations: MANAGEMENT_API_MIGRATIONS,
        }),
        OAuthModule.forRootAsync({ inject: [ManagementEnv], useFactory: oauthSettings }),
        PoliciesModule,
        OAuthHttpModule,
        ManagementApiModule,
      ],
    };
  }
}
