import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { OAUTH_MIGRATIONS } from '@acme/oauth';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { POLICIES_MIGRATIONS, PoliciesModule } from '@acme/policies';
import { ManagementEnv } from './config/env';
import { ManagementApiModule } from './management-api.module';
import { ConfiguredOAuthModule } from './oauth/configured-oauth.module';
import { OAuthHttpModule } from './oauth/oauth-http.module';
import { managementService } from './service';

/** The service's schema migrations, one list for the `management` schema; TypeORM runs them by class-name timestamp. */
export const MANAGEMENT_API_MIGRATIONS = [...POLICIES_MIGRATIONS, ...OAUTH_MIGRATIONS];

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    return ServiceCoreModule.forApp(
      AppModule,
      {
        service: managementService,
        envClass: ManagementEnv,
        source,
        schema: MANAGEMENT_SCHEMA,
        migrations: MANAGEMENT_API_MIGRATIONS,
      },
      [ConfiguredOAuthModule, PoliciesModule, OAuthHttpModule, ManagementApiModule],
    );
  }
}
