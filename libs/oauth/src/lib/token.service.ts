import { Injectable } from '@nestjs/common';
import { sign } from 'node:crypto';
import { promisify } from 'node:util';
import { AuthenticatedClient, ClientService } from './client.service';
import { ClientGrantService } from './client-grant.service';
import { OAuthErrors } from './oauth.errors';
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

const signOffLoop = promisify(sign);

/** The client-credentials grant: authenticate, then (after any enforcement) issue an RS256 JWT. */
@Injectable()
export class TokenService {
  private header?: { kid: string; encoded: string };

  constructor(
    private readonly settings: OAuthSettings,
    private readonly clients: ClientService,
    private readonly grants: ClientGrantService,
    private readonly keys: SigningKeyStore,
  ) {}

  async authenticateClient(credentials: ClientCredentials): Promise<AuthenticatedClient> {
    const client = await this.clients.authenticate(credentials.clientId, credentials.clientSecret);
    if (!client) throw OAuthErrors.rfc6749('invalid_client', 'Unauthorized');
    return client;
  }

  async issue(client: AuthenticatedClient, request: TokenRequest): Promise<TokenResponse> {
    if (!client.grantTypes.includes('client_credentials')) {
      throw OAuthErrors.rfc6749('unauthorized_client', "Grant type 'client_credentials' not allowed for the client.");
    }
    const audience = request.audience ?? this.settings.defaultAudience;
    if (!audience) throw OAuthErrors.rfc6749('invalid_request', 'Missing required parameter: audience');
    if (audience !== this.settings.managementAudience)
      throw OAuthErrors.rfc6749('access_denied', `Service not found: ${audience}`);
    const grant = await this.grants.find(client.clientId, audience);
    if (!grant) {
      throw OAuthErrors.rfc6749(
        'access_denied',
        `Client is not authorized to access "${audience}". You need to create a "client-grant" associated to this API.`,
      );
    }
    const scope = this.grantedScopes(grant.scope, request.scope).join(' ');
    const ttl = this.settings.tokenTtlSeconds;
    const iat = Math.floor(Date.now() / 1000);
    // Same claims (and order) as jsonwebtoken produced; signed directly with the KeyObject loaded once.
    const claims = {
      scope,
      gty: 'client-credentials',
      azp: client.clientId,
      iat,
      exp: iat + ttl,
      aud: audience,
      iss: this.settings.issuer,
      sub: `${client.clientId}@clients`,
    };
    return { access_token: await this.sign(claims), token_type: 'Bearer', expires_in: ttl, scope };
  }

  /**
   * RS256 compact JWS; the header depends only on the key, so it is encoded once per key. The RSA signature
   * (≈ 0.45 ms, most of a token's CPU) runs on libuv's thread pool, not on the event loop: other requests
   * keep being served meanwhile, and a second core can sign while the loop parses and answers.
   */
  private async sign(claims: object): Promise<string> {
    const key = this.keys.current();
    if (this.header?.kid !== key.kid) {
      this.header = {
        kid: key.kid,
        encoded: Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid })).toString('base64url'),
      };
    }
    const input = `${this.header.encoded}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = await signOffLoop('sha256', Buffer.from(input), key.privateKey);
    return `${input}.${signature.toString('base64url')}`;
  }

  /** RFC 6749 §3.3: without `scope` every granted scope; with it, the granted ones among those requested. */
  private grantedScopes(granted: readonly string[], requested: string | undefined): string[] {
    if (requested === undefined || requested.trim() === '') return [...granted];
    const wanted = new Set(requested.split(' ').filter(Boolean));
    const scopes = granted.filter((scope) => wanted.has(scope));
    if (scopes.length === 0)
      throw OAuthErrors.rfc6749('access_denied', `Client has not been granted scopes: ${[...wanted].join(', ')}`);
    return scopes;
  }
}
