import { API, CommunityTestApp } from './support/community-app';

describe('operator projects API', () => {
  let t: CommunityTestApp;
  beforeAll(async () => {
    t = await CommunityTestApp.start();
  });
  afterAll(async () => t?.close());

  it('creates a project with prefixed keys shown once, and answers its bundles', async () => {
    const created = await t.admin('POST', '/projects', { name: 'Acme', bundles: ['push', 'core', 'push'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: 'Acme', bundles: ['push'] });
    expect(created.body.serviceKey).toMatch(/^sk_[A-Za-z0-9_-]{40,}$/);
    expect(created.body.masterKey).toMatch(/^mk_[A-Za-z0-9_-]{40,}$/);
    const fetched = await t.admin('GET', `/projects/${created.body.id}`);
    expect(fetched.body).toEqual({
      id: created.body.id,
      name: 'Acme',
      bundles: ['push'],
      redirectOrigins: [],
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(fetched.body)).not.toContain('sk_');
  });

  it('stores only digests of the keys', async () => {
    const created = await t.admin('POST', '/projects', { name: 'Digests', bundles: [] });
    const { Client } = await import('pg');
    const client = new Client({ connectionString: t.app.database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT * FROM community.projects WHERE id = $1`, [created.body.id]);
      expect(JSON.stringify(rows)).not.toContain(created.body.serviceKey);
      expect(JSON.stringify(rows)).not.toContain(created.body.masterKey);
      expect(rows[0].service_key_digest).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await client.end();
    }
  });

  it('switches bundles with PATCH', async () => {
    const project = await t.createProject([]);
    const patched = await t.admin('PATCH', `/projects/${project.id}`, { bundles: ['files-images', 'spaces'] });
    expect(patched.status).toBe(200);
    expect(patched.body.bundles).toEqual(['spaces', 'files-images']);
  });

  it('keeps a redirect allow-list: canonical, de-duplicated, changed by PATCH without touching bundles', async () => {
    const created = await t.admin('POST', '/projects', {
      name: 'Origins',
      bundles: ['push'],
      redirectOrigins: ['https://App.Example.com:443/', 'https://app.example.com', 'http://localhost:5173'],
    });
    expect(created).toMatchObject({
      status: 201,
      body: { bundles: ['push'], redirectOrigins: ['https://app.example.com', 'http://localhost:5173'] },
    });
    const patched = await t.admin('PATCH', `/projects/${created.body.id}`, {
      redirectOrigins: ['https://staging.example.com:8443'],
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { bundles: ['push'], redirectOrigins: ['https://staging.example.com:8443'] },
    });
    const bundlesOnly = await t.admin('PATCH', `/projects/${created.body.id}`, { bundles: [] });
    expect(bundlesOnly.body).toMatchObject({ bundles: [], redirectOrigins: ['https://staging.example.com:8443'] });
    const cleared = await t.admin('PATCH', `/projects/${created.body.id}`, { redirectOrigins: [] });
    expect(cleared.body.redirectOrigins).toEqual([]);
  });

  it.each([
    ['https://app.example.com/path'],
    ['https://app.example.com/?x=1'],
    ['https://app.example.com/#top'],
    ['https://user:pw@app.example.com'],
    ['javascript:alert(1)'],
    ['ftp://files.example.com'],
    ['app.example.com'],
    [''],
  ])('refuses %j as a redirect origin (400, nothing changed)', async (origin) => {
    const project = await t.createProject([]);
    const response = await t.admin('PATCH', `/projects/${project.id}`, {
      redirectOrigins: ['https://ok.example.com', origin],
    });
    expect(response).toMatchObject({ status: 400, body: { code: 'request/invalid-body' } });
    expect((await t.admin('GET', `/projects/${project.id}`)).body.redirectOrigins).toEqual([]);
  });

  it('refuses more than 20 redirect origins, and a list that is not strings', async () => {
    const project = await t.createProject([]);
    const many = Array.from({ length: 21 }, (_, i) => `https://app${i}.example.com`);
    for (const redirectOrigins of [many, 'https://app.example.com', [42]]) {
      const response = await t.admin('PATCH', `/projects/${project.id}`, { redirectOrigins });
      expect(response).toMatchObject({ status: 400, body: { code: 'request/invalid-body' } });
    }
  });

  it.each([
    ['GET', '/projects/00000000-0000-4000-8000-000000000000'],
    ['GET', '/projects/not-a-uuid'],
    ['PATCH', '/projects/00000000-0000-4000-8000-000000000000'],
  ])('%s %s of an unknown project is 404 project/not-found', async (method, path) => {
    const response = await t.admin(method, path, method === 'PATCH' ? { bundles: [] } : undefined);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.any(String), code: 'project/not-found' });
  });

  it('answers an unknown project on a public route with 404 project/not-found', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%E2%9C%93']) {
      const response = await t.request('POST', `${API(id)}/auth/sign-in`, { body: { email: 'a@b.c', password: 'x' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String), code: 'project/not-found' });
    }
  });

  it('refuses the operator API without the admin token', async () => {
    const response = await t.request('POST', '/admin/v1/projects', { body: { name: 'x' }, token: 'wrong' });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('admin/unauthorized');
  });

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: 'x'.repeat(201) }],
    [{ name: 'x', bundles: ['nope'] }],
    [{ name: 'x', bundles: 'push' }],
    [{ name: 'x', extra: 1 }],
  ])('rejects the invalid create body %j with 400', async (body) => {
    const response = await t.admin('POST', '/projects', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: expect.any(String), code: 'request/invalid-body' });
  });
});
