import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientAssertionsService } from './client-assertions.service';
import { ClientBootstrap } from './client-bootstrap';
import { ClientGrantService } from './client-grant.service';
import { ClientService } from './client.service';
import { CredentialCache } from './credential-cache';
import { Client, ClientGrant, SigningKey } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';
import { ClientCredentialRepository, ClientGrantRepository, ClientRepository, SigningKeyRepository } from './repositories';
import { SigningKeyStore } from './signing-key.store';
import { TokenService } from './token.service';

export interface OAuthModuleAsyncOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => OAuthSettings;
}

/** Clients, grants, the signing key and token issuing; needs the app's global persistence module. */
@Module({})
export class OAuthModule {
  static forRootAsync(options: OAuthModuleAsyncOptions): DynamicModule {
    return {
      module: OAuthModule,
      global: true,
      imports: [TypeOrmModule.forFeature([Client, ClientGrant, SigningKey])],
      providers: [
        { provide: OAuthSettings, inject: options.inject ?? [], useFactory: options.useFactory },
        ClientRepository,
        ClientGrantRepository,
        ClientCredentialRepository,
        SigningKeyRepository,
        CredentialCache,
        ClientService,
        ClientAssertionsService,
        ClientGrantService,
        SigningKeyStore,
        TokenService,
        ClientBootstrap,
      ],
      exports: [OAuthSettings, CredentialCache, ClientService, ClientAssertionsService, ClientGrantService, SigningKeyStore, TokenService],
    };
  }
}
