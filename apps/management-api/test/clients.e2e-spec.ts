import { Client } from 'pg';
import { AUDIENCE, BOOTSTRAP, ManagementApp, startManagement } from './support';

type ClientBody = {
  client_id: string;
  client_secret?: string;
  name: string;
  is_first_party: boolean;
  grant_types: string[];
};

describe('/api/v2/clients and /api/v2/client-grants', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagement();
  });
  afterAll(async () => app?.close());

  const createClient = async (body: Record<string, unknown>) => app.api('/clients', { method: 'POST', body });
  const grant = (clientId: string, scope: string[]) =>
    app.api('/client-grants', { method: 'POST', body: { client_id: clientId, audience: AUDIENCE, scope } });

  it('creates a client with a generated id and a secret shown once, stored only as a digest', async () => {
    const response = await createClient({ name: 'Reporting job', is_first_party: false });
    expect(response.status).toBe(201);
    const created = (await response.json()) as ClientBody;
    expect(created).toMatchObject({
      name: 'Reporting job',
      is_first_party: false,
      grant_types: ['client_credentials'],
    });
    expect(created.client_id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(created.client_secret!.length).toBeGreaterThanOrEqual(64);

    const fetched = (await (await app.api(`/clients/${created.client_id}`)).json()) as ClientBody;
    expect(fetched.client_secret).toBeUndefined();
    expect(fetched).toMatchObject({ client_id: created.client_id, is_first_party: false });

    const db = new Client({ connectionString: app.database.url });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT * FROM management.clients WHERE client_id = $1`, [created.client_id]);
      expect(JSON.stringify(rows)).not.toContain(created.client_secret);
      expect(rows[0].secret_digest).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await db.end();
    }
  });

  it('lets a new client get a token only once it has a grant, limited to the granted scopes', async () => {
    const created = (await (await createClient({ name: 'Policy reader' })).json()) as ClientBody;
    const credentials = { clientId: created.client_id, clientSecret: created.client_secret! };
    await expect(app.token(undefined, credentials)).rejects.toThrow(/403.*access_denied/);
    const granted = await grant(created.client_id, ['read:rate_limit_policies']);
    expect(granted.status).toBe(201);
    const body = (await granted.json()) as { id: string; client_id: string; audience: string; scope: string[] };
    expect(body).toMatchObject({
      client_id: created.client_id,
      audience: AUDIENCE,
      scope: ['read:rate_limit_policies'],
    });
    const token = await app.token(undefined, credentials);
    expect((await app.api('/rate-limit-policies', { token })).status).toBe(200);
    expect((await app.api('/clients', { token })).status).toBe(403);

    expect((await app.api(`/client-grants/${body.id}`)).status).toBe(200);
    const listed = (await (await app.api(`/client-grants?client_id=${created.client_id}`)).json()) as unknown[];
    expect(listed).toHaveLength(1);
    const totals = (await (
      await app.api(`/client-grants?client_id=${created.client_id}&include_totals=true`)
    ).json()) as { total: number };
    expect(totals.total).toBe(1);

    expect((await grant(created.client_id, ['read:clients'])).status).toBe(409);
    expect((await app.api(`/client-grants/${body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await app.api(`/client-grants/${body.id}`)).status).toBe(404);
    await expect(app.token(undefined, credentials)).rejects.toThrow(/403/);
  });

  it('accepts an https:// client id (a client identified by its metadata document)', async () => {
    const clientId = 'https://app.example.com/oauth/client-metadata.json';
    const response = await createClient({ name: 'CIMD app', client_id: clientId });
    expect(response.status).toBe(201);
    const created = (await response.json()) as ClientBody;
    expect(created.client_id).toBe(clientId);
    expect((await app.api(`/clients/${encodeURIComponent(clientId)}`)).status).toBe(200);
    expect((await createClient({ name: 'again', client_id: clientId })).status).toBe(409);
    expect((await createClient({ name: 'bad', client_id: 'http://app.example.com/x' })).status).toBe(400);
    expect((await createClient({ name: 'bad', client_id: 'chosen-id' })).status).toBe(400);
  });

  it('refuses client_credentials to a client without that grant type (unauthorized_client)', async () => {
    const created = (await (
      await createClient({ name: 'SPA', grant_types: ['authorization_code'] })
    ).json()) as ClientBody;
    await grant(created.client_id, ['read:clients']);
    await expect(
      app.token(undefined, { clientId: created.client_id, clientSecret: created.client_secret! }),
    ).rejects.toThrow(/403.*unauthorized_client/);
  });

  it('lists clients as an array or with totals, and deletes a client with its grants', async () => {
    const list = (await (await app.api('/clients?per_page=100')).json()) as ClientBody[];
    expect(list.map((c) => c.client_id)).toContain(BOOTSTRAP.clientId);
    const paged = (await (await app.api('/clients?page=0&per_page=1&include_totals=true')).json()) as {
      total: number;
      clients: unknown[];
      limit: number;
    };
    expect(paged.clients).toHaveLength(1);
    expect(paged.total).toBe(list.length);

    const created = (await (await createClient({ name: 'Short lived' })).json()) as ClientBody;
    await grant(created.client_id, ['read:clients']);
    expect((await app.api(`/clients/${created.client_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await app.api(`/clients/${created.client_id}`)).status).toBe(404);
    expect((await app.api(`/clients/${created.client_id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await (await app.api(`/client-grants?client_id=${created.client_id}`)).json()).toEqual([]);
    await expect(
      app.token(undefined, { clientId: created.client_id, clientSecret: created.client_secret! }),
    ).rejects.toThrow(/401.*invalid_client/);
  });

  it.each([
    ['an unknown client', { client_id: 'nobody', audience: AUDIENCE, scope: [] }, 404, 'inexistent_client'],
    [
      'another audience',
      { client_id: BOOTSTRAP.clientId, audience: 'https://other.test/', scope: [] },
      400,
      'invalid_body',
    ],
    [
      'an unknown scope',
      { client_id: BOOTSTRAP.clientId, audience: AUDIENCE, scope: ['read:everything'] },
      400,
      'invalid_body',
    ],
    [
      'an unknown property',
      { client_id: BOOTSTRAP.clientId, audience: AUDIENCE, scope: [], extra: true },
      400,
      'invalid_body',
    ],
  ])('rejects a grant for %s', async (_label, body, status, errorCode) => {
    const response = await app.api('/client-grants', { method: 'POST', body });
    expect(response.status).toBe(status);
    expect(((await response.json()) as Record<string, unknown>)['errorCode']).toBe(errorCode);
  });

  it('rejects client bodies and queries it does not understand', async () => {
    expect((await createClient({})).status).toBe(400);
    expect((await createClient({ name: 'x', grant_types: ['magic'] })).status).toBe(400);
    expect((await createClient({ name: 'x', is_first_party: 'yes' })).status).toBe(400);
    expect((await app.api('/clients?per_page=101')).status).toBe(400);
    expect((await app.api('/clients?unknown=1')).status).toBe(400);
  });
});
