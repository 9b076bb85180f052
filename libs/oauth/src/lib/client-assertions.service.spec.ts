import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { RedisClient } from '@acme/platform-redis';
import { ClientAssertionsService } from './client-assertions.service';
import type { CredentialCache } from './credential-cache';
import { OAuthError } from './oauth.errors';
import type { OAuthSettings } from './oauth.settings';
import type { ClientCredentialRepository } from './repositories/client-credential.repository';

const ISSUER = 'https://tenant.test/';
const CLIENT = 'jwt-client';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

function service(set: () => Promise<string | null>): ClientAssertionsService {
  const credentials = {
    listByClient: async () => [
      {
        id: 'cred_1',
        name: null,
        kid: 'k1',
        alg: 'RS256',
        public_key_pem: keys.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        created_at: new Date(),
      },
    ],
  } as unknown as ClientCredentialRepository;
  const cache = {
    client: async () => ({
      clientId: CLIENT,
      isFirstParty: true,
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethod: 'private_key_jwt',
    }),
  } as unknown as CredentialCache;
  const redis = { status: 'ready', set } as unknown as RedisClient;
  return new ClientAssertionsService(credentials, { issuer: ISSUER } as OAuthSettings, cache, redis);
}

const assertion = () =>
  jwt.sign({ jti: randomUUID() }, keys.privateKey, {
    algorithm: 'RS256',
    issuer: CLIENT,
    subject: CLIENT,
    audience: `${ISSUER}oauth/token`,
    expiresIn: 60,
  });

describe('ClientAssertionsService replay check', () => {
  it('accepts a fresh assertion', async () => {
    await expect(service(async () => 'OK').authenticate(assertion(), CLIENT)).resolves.toMatchObject({
      clientId: CLIENT,
    });
  });

  it('answers 503 (replay check unavailable), not a 500, when Redis fails in the middle of the check', async () => {
    const failing = service(() => Promise.reject(new Error('Connection is closed.')));
    const error = await failing.authenticate(assertion(), CLIENT).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5 });
  });
});
