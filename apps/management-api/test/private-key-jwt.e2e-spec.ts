import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { ManagementApiError, ManagementClient } from 'auth0';
import jwt from 'jsonwebtoken';
import { AUDIENCE, ManagementApp, managementSdk, startManagement } from './support';

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
};

/** private_key_jwt at /oauth/token (RFC 7523), with keys registered through the official SDK. */
describe('client authentication with a signed assertion (private_key_jwt)', () => {
  let app: ManagementApp;
  let admin: ManagementClient;
  let clientId: string;
  let clientSecret: string;
  let credentialId: string;
  const key = pair();

  beforeAll(async () => {
    app = await startManagement();
    admin = managementSdk(app);
    const { data } = await admin.clients.create({
      name: 'signed',
      token_endpoint_auth_method: 'private_key_jwt' as never,
    });
    clientId = data.client_id;
    clientSecret = data.client_secret as string;
    await admin.clientGrants.create({ client_id: clientId, audience: AUDIENCE, scope: ['read:clients'] });
    const { data: credential } = await admin.clients.createCredential(
      { client_id: clientId },
      { credential_type: 'public_key', name: 'ci', pem: key.publicPem, alg: 'RS256' },
    );
    credentialId = credential.id as string;
  });
  afterAll(async () => app?.close());

  const assertion = (claims: Record<string, unknown> = {}, privatePem = key.privatePem) =>
    jwt.sign(
      {
        iss: clientId,
        sub: clientId,
        aud: 'https://tenant.test/',
        jti: randomUUID(),
        exp: Math.floor(Date.now() / 1000) + 120,
        ...claims,
      },
      privatePem,
      { algorithm: 'RS256' },
    );
  const token = (body: Record<string, unknown>) =>
    fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        audience: AUDIENCE,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        ...body,
      }),
    });

  it('lets the official SDK authenticate with its signing key', async () => {
    const routed = (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
      return fetch(url.replace(/^https:\/\/tenant\.test/, app.url), init);
    };
    const signed = new ManagementClient({
      domain: 'tenant.test',
      clientId,
      clientAssertionSigningKey: key.privatePem,
      fetch: routed as typeof fetch,
      retry: { enabled: false },
    });
    const { data } = await signed.clients.getAll();
    expect(data.map((client) => client.client_id)).toContain(clientId);
    expect((await admin.clients.getCredentials({ client_id: clientId })).data).toEqual([
      expect.objectContaining({ id: credentialId, credential_type: 'public_key', alg: 'RS256' }),
    ]);
  });

  it('accepts an assertion once: a replayed jti is invalid_client', async () => {
    const signed = assertion({ jti: 'once-only' });
    expect((await token({ client_assertion: signed })).status).toBe(200);
    const replay = await token({ client_assertion: signed });
    expect({ status: replay.status, body: await replay.json() }).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'The client assertion was already used' },
    });
  });

  it.each([
    ['another key', () => assertion({}, pair().privatePem)],
    ['an expired assertion', () => assertion({ exp: Math.floor(Date.now() / 1000) - 60 })],
    ['another audience', () => assertion({ aud: 'https://elsewhere.test/' })],
    [
      'no jti',
      () =>
        jwt.sign({ iss: clientId, sub: clientId, aud: 'https://tenant.test/' }, key.privatePem, {
          algorithm: 'RS256',
          expiresIn: 120,
        }),
    ],
    [
      'a lifetime over 10 minutes',
      () =>
        jwt.sign({ iss: clientId, sub: clientId, aud: 'https://tenant.test/', jti: randomUUID() }, key.privatePem, {
          algorithm: 'RS256',
          expiresIn: 3600,
        }),
    ],
  ])('refuses %s with invalid_client', async (_label, make) => {
    const response = await token({ client_assertion: make() });
    expect({ status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({
      status: 401,
      error: 'invalid_client',
    });
  });

  it('refuses the secret of a private_key_jwt client, and assertions once its key is removed', async () => {
    const bySecret = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        audience: AUDIENCE,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    expect(bySecret.status).toBe(401);
    expect((await token({ client_assertion: assertion(), client_secret: 'x' })).status).toBe(400);
    await admin.clients.deleteCredential({ client_id: clientId, credential_id: credentialId });
    expect((await token({ client_assertion: assertion() })).status).toBe(401);
    const unknown = await admin.clients
      .deleteCredential({ client_id: clientId, credential_id: credentialId })
      .catch((error: ManagementApiError) => error);
    expect(unknown).toMatchObject({ statusCode: 404 });
  });
});
