import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { AuthenticatedClient, ClientService } from './client.service';
import { ClientGrantService } from './client-grant.service';
import { oauthError } from './oauth.errors';
import { OAuthSettings } from './oauth.settings';
import { SigningKeyStore } from './signing-key.store';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenRequest {
  audience?: string;
  /** Space-separated scopes requested (a subset of the granted ones). */
  scope?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** The client-credentials grant: authenticate, then (after any enforcement) issue an RS256 JWT. */
@Injectable()
export class TokenService {
  constructor(
    private readonly settings: OAuthSettings,
    private readonly clients: ClientService,
    private readonly grants: ClientGrantService,
    private readonly keys: SigningKeyStore,
  ) {}

  async authenticateClient(credentials: ClientCredentials): Promise<AuthenticatedClient> {
    const client = await this.clients.authenticate(credentials.clientId, credentials.clientSecret);
    if (!client) throw oauthError('invalid_client', 'Unauthorized');
    return client;
  }

  async issue(client: AuthenticatedClient, request: TokenRequest): Promise<TokenResponse> {
    if (!client.grantTypes.includes('client_credentials')) {
      throw oauthError('unauthorized_client', 'Grant type \'client_credentials\' not allowed for the client.');
    }
    if (!request.audience) throw oauthError('invalid_request', 'Missing required parameter: audience');
    if (request.audience !== this.settings.managementAudience) throw oauthError('access_denied', `Service not found: ${request.audience}`);
    const grant = await this.grants.find(client.clientId, request.audience);
    if (!grant) {
      throw oauthError('access_denied', `Client is not authorized to access "${request.audience}". You need to create a "client-grant" associated to this API.`);
    }
    const scopes = this.grantedScopes(grant.scope, request.scope);
    const key = this.keys.current();
    const ttl = this.settings.tokenTtlSeconds;
    const accessToken = jwt.sign(
      { scope: scopes.join(' '), gty: 'client-credentials', azp: client.clientId },
      key.privateKey,
      { algorithm: 'RS256', keyid: key.kid, issuer: this.settings.issuer, audience: request.audience, subject: `${client.clientId}@clients`, expiresIn: ttl },
    );
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') };
  }

  /** RFC 6749 §3.3: without `scope` every granted scope; with it, the granted ones among those requested. */
  private grantedScopes(granted: string[], requested: string | undefined): string[] {
    if (requested === undefined || requested.trim() === '') return granted;
    const wanted = new Set(requested.split(' ').filter(Boolean));
    const scopes = granted.filter((scope) => wanted.has(scope));
    if (scopes.length === 0) throw oauthError('access_denied', `Client has not been granted scopes: ${[...wanted].join(', ')}`);
    return scopes;
  }
}
