import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { ClientAssertionsService } from './client-assertions.service';
import { ClientAuthenticator } from './client-authenticator';
import { ClientBootstrap } from './client-bootstrap';
import { ClientGrantService } from './client-grant.service';
import { ClientService } from './client.service';
import { CredentialCache } from './credential-cache';
import { Client, ClientGrant, SigningKey } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';
import {
  ClientCredentialRepository,
  ClientGrantRepository,
  ClientRepository,
  SigningKeyRepository,
} from './repositories';
import { SigningKeyStore } from './signing-key.store';
import { TokenService } from './token.service';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<OAuthSettings>()
  .setClassMethodName('forRoot')
  .build();

/**
 * Clients, grants, the signing key and token issuing; needs the app's persistence and Redis modules. Not global: the app
 * configures it once (`forRoot`/`forRootAsync`) and every module using its services imports that same object.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Client, ClientGrant, SigningKey]), RateLimitingModule],
  providers: [
    { provide: OAuthSettings, useExisting: MODULE_OPTIONS_TOKEN },
    ClientRepository,
    ClientGrantRepository,
    ClientCredentialRepository,
    SigningKeyRepository,
    CredentialCache,
    ClientService,
    ClientAssertionsService,
    ClientAuthenticator,
    ClientGrantService,
    SigningKeyStore,
    TokenService,
    ClientBootstrap,
  ],
  exports: [
    OAuthSettings,
    CredentialCache,
    ClientService,
    ClientAssertionsService,
    ClientAuthenticator,
    ClientGrantService,
    SigningKeyStore,
    TokenService,
  ],
})
export class OAuthModule extends ConfigurableModuleClass {}
