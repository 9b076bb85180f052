import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AuthenticatedClient, ClientService } from './client.service';
import { ClientGrantService } from './client-grant.service';
import { OAuthError } from './oauth.errors';
import { OAuthSettings } from './oauth.settings';
import { SigningKeyStore } from './signing-key.store';
import { TokenService } from './token.service';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
const settings: OAuthSettings = {
  issuer: 'https://t.test/',
  managementAudience: 'https://t.test/api/v2/',
  tokenTtlSeconds: 60,
  signingKeyPem: pem,
  clientSecretKey: 'k'.repeat(32),
};
const client: AuthenticatedClient = {
  clientId: 'c1',
  isFirstParty: true,
  grantTypes: ['client_credentials'],
  isCimd: false,
};

async function service(granted: string[] | undefined, authenticated: AuthenticatedClient | null = client) {
  const keys = new SigningKeyStore(settings, {} as never, {} as never);
  await keys.onModuleInit();
  const clients = { authenticate: jest.fn().mockResolvedValue(authenticated ?? undefined) } as unknown as ClientService;
  const grants = { find: jest.fn().mockResolvedValue(granted && { scope: granted }) } as unknown as ClientGrantService;
  return { tokens: new TokenService(settings, clients, grants, keys), keys };
}

const codeOf = async (work: Promise<unknown>) => {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OAuthError);
  return (error as OAuthError).oauthCode;
};

describe('TokenService', () => {
  it('signs the documented claims with the store key', async () => {
    const { tokens, keys } = await service(['a:b', 'c:d']);
    const response = await tokens.issue(client, { audience: settings.managementAudience });
    expect(response).toMatchObject({ token_type: 'Bearer', expires_in: 60, scope: 'a:b c:d' });
    const decoded = jwt.decode(response.access_token, { complete: true })!;
    expect(decoded.header).toMatchObject({ alg: 'RS256', kid: keys.current().kid });
    const claims = jwt.verify(response.access_token, keys.publicKeyFor(keys.current().kid)!, { algorithms: ['RS256'] });
    expect(claims).toMatchObject({
      iss: settings.issuer,
      aud: settings.managementAudience,
      sub: 'c1@clients',
      azp: 'c1',
      gty: 'client-credentials',
      scope: 'a:b c:d',
    });
  });

  it('down-scopes to the granted ones among those requested', async () => {
    const { tokens } = await service(['a:b', 'c:d']);
    expect((await tokens.issue(client, { audience: settings.managementAudience, scope: 'c:d x:y' })).scope).toBe('c:d');
    expect(await codeOf(tokens.issue(client, { audience: settings.managementAudience, scope: 'x:y' }))).toBe(
      'access_denied',
    );
  });

  it.each([
    ['no audience', {}, 'invalid_request'],
    ['another audience', { audience: 'https://x.test/' }, 'access_denied'],
  ])('refuses %s', async (_label, request, code) => {
    const { tokens } = await service(['a:b']);
    expect(await codeOf(tokens.issue(client, request))).toBe(code);
  });

  it('refuses a client without a grant, or without the client_credentials grant type', async () => {
    expect(
      await codeOf((await service(undefined)).tokens.issue(client, { audience: settings.managementAudience })),
    ).toBe('access_denied');
    const spa = { ...client, grantTypes: ['authorization_code'] };
    expect(await codeOf((await service(['a:b'])).tokens.issue(spa, { audience: settings.managementAudience }))).toBe(
      'unauthorized_client',
    );
  });

  it('answers invalid_client when authentication fails', async () => {
    const { tokens } = await service(['a:b'], null);
    expect(await codeOf(tokens.authenticateClient({ clientId: 'c1', clientSecret: 'wrong' }))).toBe('invalid_client');
  });
});
