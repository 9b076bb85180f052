import { Injectable } from '@nestjs/common';
import { createHash, createPublicKey, KeyObject, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '@acme/platform-errors';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import { AuthenticatedClient, toAuthenticated } from './client.service';
import { CredentialCache } from './credential-cache';
import { OAuthErrors } from './oauth.errors';
import { OAuthSettings } from './oauth.settings';
import { ClientCredentialRepository, ClientCredentialRow } from './repositories/client-credential.repository';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'PS256'] as const;
/** An assertion living longer than this is refused: its jti would have to be remembered as long. */
const MAX_LIFETIME_SECONDS = 600;

export interface ClientCredentialView {
  id: string;
  name: string | null;
  credential_type: 'public_key';
  kid: string;
  alg: string;
  created_at: string;
}

const view = (row: ClientCredentialRow): ClientCredentialView => ({
  id: row.id,
  name: row.name,
  credential_type: 'public_key',
  kid: row.kid,
  alg: row.alg,
  created_at: row.created_at.toISOString(),
});
const invalid = (description: string) => OAuthErrors.rfc6749('invalid_client', description);

/**
 * private_key_jwt (RFC 7523 §2.2, Auth0's "Private Key JWT"): a client registers public keys and authenticates
 * with a short-lived JWT it signs, `iss` = `sub` = its id, `aud` this tenant, with `exp` and `jti`. A `jti` is
 * accepted once, remembered in Redis until the assertion expires, so a replay fails on every instance; while Redis
 * is away assertions are refused (503) rather than accepted unchecked.
 */
@Injectable()
export class ClientAssertionsService {
  constructor(
    private readonly credentials: ClientCredentialRepository,
    private readonly settings: OAuthSettings,
    private readonly cache: CredentialCache,
    @InjectRedis() private readonly redis: RedisClient,
  ) {}

  async add(clientId: string, input: { name?: string; pem: string; alg?: string }): Promise<ClientCredentialView> {
    let key: KeyObject;
    try {
      key = createPublicKey(input.pem);
    } catch {
      throw OAuthErrors.invalidPublicKey('pem must be a PEM public key');
    }
    if (key.asymmetricKeyType !== 'rsa') {
      throw OAuthErrors.invalidPublicKey('pem must be an RSA public key');
    }
    if (!(await this.cache.client(clientId))) throw OAuthErrors.clientNotFound(clientId);
    const spki = key.export({ format: 'pem', type: 'spki' }).toString();
    const row = await this.credentials.insert({
      id: `cred_${randomBytes(12).toString('hex')}`,
      clientId,
      name: input.name ?? null,
      alg: input.alg ?? 'RS256',
      kid: createHash('sha256').update(spki).digest('base64url'),
      public_key_pem: spki,
    });
    return view(row);
  }

  async list(clientId: string): Promise<ClientCredentialView[]> {
    if (!(await this.cache.client(clientId))) throw OAuthErrors.clientNotFound(clientId);
    return (await this.credentials.listByClient(clientId)).map(view);
  }

  async remove(clientId: string, id: string): Promise<void> {
    if (!(await this.credentials.deleteForClient(clientId, id))) throw OAuthErrors.credentialNotFound(id);
  }

  /** The client a valid, unused assertion authenticates; `invalid_client` for anything else. */
  async authenticate(assertion: string, claimedClientId: string | undefined): Promise<AuthenticatedClient> {
    const unverified = jwt.decode(assertion, { complete: true });
    const issuer = typeof unverified?.payload === 'object' ? unverified.payload.iss : undefined;
    if (!issuer || (claimedClientId !== undefined && claimedClientId !== issuer))
      throw invalid('The client assertion does not name this client');
    const client = issuer.length <= 245 ? await this.cache.client(issuer) : null;
    if (!client || client.tokenEndpointAuthMethod !== 'private_key_jwt') throw invalid('Unauthorized');
    const claims = this.verified(assertion, issuer, await this.credentials.listByClient(issuer));
    await this.spend(issuer, claims);
    return toAuthenticated(client);
  }

  private verified(assertion: string, clientId: string, credentials: ClientCredentialRow[]): jwt.JwtPayload {
    const audience: [string, string] = [this.settings.issuer, `${this.settings.issuer}oauth/token`];
    for (const credential of credentials) {
      try {
        const claims = jwt.verify(assertion, createPublicKey(credential.public_key_pem), {
          algorithms: [credential.alg as jwt.Algorithm],
          audience,
          issuer: clientId,
          subject: clientId,
          clockTolerance: 5,
        });
        if (
          typeof claims === 'string' ||
          typeof claims.exp !== 'number' ||
          typeof claims.jti !== 'string' ||
          claims.jti.length === 0
        )
          throw invalid('The client assertion needs exp and jti');
        if (claims.exp - Math.floor(Date.now() / 1000) > MAX_LIFETIME_SECONDS)
          throw invalid(`The client assertion must expire within ${MAX_LIFETIME_SECONDS} seconds`);
        return claims;
      } catch (error) {
        if (error instanceof AppError) throw error;
      }
    }
    throw invalid('The client assertion is not signed by a key of this client, or has expired');
  }

  private async spend(clientId: string, claims: jwt.JwtPayload): Promise<void> {
    if (this.redis.status !== 'ready') throw OAuthErrors.replayCheckUnavailable();
    const ttlMs = Math.max(1000, ((claims.exp as number) + 5) * 1000 - Date.now());
    const key = `oauth:assertion:${createHash('sha256').update(`${clientId}\u0000${claims.jti}`).digest('hex')}`;
    let stored: string | null;
    try {
      stored = await this.redis.set(key, '1', 'PX', ttlMs, 'NX');
    } catch {
      // Redis dropped the connection mid-call: the same 503 as when it is down, never a 500.
      throw OAuthErrors.replayCheckUnavailable();
    }
    if (stored !== 'OK') throw invalid('The client assertion was already used');
  }
}
