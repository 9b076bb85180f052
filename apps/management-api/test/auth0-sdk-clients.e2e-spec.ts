import { ManagementApiError, ManagementClient } from 'auth0';
import { AUDIENCE, BOOTSTRAP, ManagementApp, managementSdk, PUBLIC_URL, startManagement } from './support';

/** What machine-to-machine setup scripts call next to the policy routes, through the official `auth0` SDK. */
describe('client and grant administration through the official auth0 ManagementClient', () => {
  let app: ManagementApp;
  let management: ManagementClient;

  beforeAll(async () => {
    app = await startManagement();
    management = managementSdk(app);
  });
  afterAll(async () => app?.close());

  const tokenStatus = async (clientId: string, clientSecret: string) =>
    (
      await fetch(`${app.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          audience: AUDIENCE,
        }),
      })
    ).status;

  it('creates a client with the settings setup scripts send, and patches only what is sent', async () => {
    const { data: created } = await management.clients.create({
      name: 'deploy-bot',
      app_type: 'non_interactive',
      description: 'CI deployments',
      client_metadata: { team: 'platform' },
      jwt_configuration: { alg: 'RS256', lifetime_in_seconds: 3600 },
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['client_credentials'],
    });
    expect(created).toMatchObject({
      name: 'deploy-bot',
      app_type: 'non_interactive',
      description: 'CI deployments',
      client_metadata: { team: 'platform' },
      jwt_configuration: { alg: 'RS256', lifetime_in_seconds: 3600 },
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { data: patched } = await management.clients.update(
      { client_id: created.client_id },
      { description: 'CD deployments', client_metadata: { team: 'sre' } },
    );
    expect(patched).toMatchObject({
      name: 'deploy-bot',
      app_type: 'non_interactive',
      description: 'CD deployments',
      client_metadata: { team: 'sre' },
      jwt_configuration: { alg: 'RS256' },
    });
    const refused = await management.clients
      .update({ client_id: created.client_id }, { app_type: 'mainframe' } as never)
      .catch((error: ManagementApiError) => error);
    expect(refused).toMatchObject({ statusCode: 400, errorCode: 'invalid_body' });
    const unknown = await management.clients
      .update({ client_id: 'nobody' }, { description: 'x' })
      .catch((error: ManagementApiError) => error);
    expect(unknown).toMatchObject({ statusCode: 404 });
  });

  it('rotates a secret: the new one is shown once, the old one stops working at once', async () => {
    const { data: created } = await management.clients.create({ name: 'rotating' });
    await management.clientGrants.create({ client_id: created.client_id, audience: AUDIENCE, scope: ['read:clients'] });
    expect(await tokenStatus(created.client_id, created.client_secret as string)).toBe(200);
    const { data: rotated } = await management.clients.rotateClientSecret({ client_id: created.client_id });
    expect(rotated.client_secret).toEqual(expect.any(String));
    expect(rotated.client_secret).not.toBe(created.client_secret);
    expect(await tokenStatus(created.client_id, created.client_secret as string)).toBe(401);
    expect(await tokenStatus(created.client_id, rotated.client_secret as string)).toBe(200);
    const { data: read } = await management.clients.get({ client_id: created.client_id });
    expect(read.client_secret).toBeUndefined();
  });

  it('replaces a grant’s scopes with PATCH, and new tokens carry them', async () => {
    const { data: created } = await management.clients.create({ name: 'narrowed' });
    const { data: grant } = await management.clientGrants.create({
      client_id: created.client_id,
      audience: AUDIENCE,
      scope: ['read:clients', 'read:client_grants'],
    });
    const { data: updated } = await management.clientGrants.update(
      { id: grant.id as string },
      { scope: ['read:rate_limit_policies'] },
    );
    expect(updated.scope).toEqual(['read:rate_limit_policies']);
    const response = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
        audience: AUDIENCE,
      }),
    });
    expect(((await response.json()) as { scope: string }).scope).toBe('read:rate_limit_policies');
  });

  it('selects fields on client reads with fields and include_fields', async () => {
    const { data: only } = await management.clients.getAll({ fields: 'client_id,name', include_fields: true });
    expect(only.length).toBeGreaterThan(0);
    for (const client of only) expect(Object.keys(client).sort()).toEqual(['client_id', 'name']);
    const { data: without } = await management.clients.get({
      client_id: BOOTSTRAP.clientId,
      fields: 'client_metadata,created_at',
      include_fields: false,
    });
    expect(without).toHaveProperty('name');
    expect(without).not.toHaveProperty('client_metadata');
    expect(without).not.toHaveProperty('created_at');
  });

  it('publishes OpenID discovery metadata for the token endpoint', async () => {
    const response = await fetch(`${app.url}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer: `${PUBLIC_URL}/`,
      jwks_uri: `${PUBLIC_URL}/.well-known/jwks.json`,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
    });
  });
});
