import { waitForRoomInWindow } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject } from './support/community-app';

describe('end-user auth', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let other: TestProject;
  beforeAll(async () => {
    // The tests act as a local proxy trusted to tell each client's address (X-Forwarded-For).
    t = await CommunityTestApp.start({ env: { SIGN_IN_ATTEMPTS_PER_MINUTE: '10', TRUSTED_PROXIES: '127.0.0.1' } });
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t?.close());

  const me = (projectId: string, token?: string) => t.request('GET', `${API(projectId)}/auth/me`, { token });

  it('signs up, signs in and answers the user behind the access token', async () => {
    const signUp = await t.request('POST', `${API(project.id)}/auth/sign-up`, {
      body: { email: ' Ada@Example.com ', password: 'correct horse', name: 'Ada' },
    });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.stringMatching(/^rt_/),
      user: {
        id: expect.any(String),
        projectId: project.id,
        email: 'ada@example.com',
        name: 'Ada',
        isVerified: false,
        createdAt: expect.any(String),
      },
    });
    const signIn = await t.request('POST', `${API(project.id)}/auth/sign-in`, {
      body: { email: 'ADA@example.com', password: 'correct horse' },
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(signUp.body.user.id);
    const claims = JSON.parse(Buffer.from(signIn.body.accessToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: signUp.body.user.id, aud: project.id, iss: 'community-api' });
    expect(claims.exp - claims.iat).toBe(1800);
    const who = await me(project.id, signIn.body.accessToken);
    expect(who.status).toBe(200);
    expect(who.body.email).toBe('ada@example.com');
  });

  it('refuses a second account with the same email in a project, not in another project', async () => {
    await t.signUp(project.id, { email: 'twice@example.com' });
    const again = await t.request('POST', `${API(project.id)}/auth/sign-up`, {
      body: { email: 'TWICE@example.com', password: 'password1' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: expect.any(String), code: 'auth/email-already-in-use' });
    await expect(t.signUp(other.id, { email: 'twice@example.com' })).resolves.toBeDefined();
  });

  it('answers a wrong password and an unknown email alike', async () => {
    await t.signUp(project.id, { email: 'pw@example.com', password: 'right password' });
    for (const body of [
      { email: 'pw@example.com', password: 'wrong password' },
      { email: 'nobody@example.com', password: 'right password' },
    ]) {
      const response = await t.request('POST', `${API(project.id)}/auth/sign-in`, { body });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid email or password.', code: 'auth/invalid-credentials' });
    }
  });

  it('applies the 401/403 rules: no credentials, bad token, token of another project, keys on a user route', async () => {
    const user = await t.signUp(project.id);
    expect((await me(project.id)).body).toEqual({ error: expect.any(String), code: 'auth/unauthorized' });
    expect((await me(project.id)).status).toBe(401);
    for (const token of [
      'garbage',
      `${user.accessToken}x`,
      other.serviceKey,
      'sk_wrong',
      project.serviceKey,
      project.masterKey,
    ]) {
      const response = await me(project.id, token);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('auth/forbidden');
    }
    const crossProject = await me(other.id, user.accessToken);
    expect(crossProject.status).toBe(403);
    expect(crossProject.body.code).toBe('auth/forbidden');
  });

  it('rotates refresh tokens and revokes the family when a spent one is reused', async () => {
    const user = await t.signUp(project.id);
    const refresh = (refreshToken: string) =>
      t.request('POST', `${API(project.id)}/auth/request-new-access-token`, { body: { refreshToken } });
    const first = await refresh(user.refreshToken);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.stringMatching(/^rt_/) });
    expect(first.body.refreshToken).not.toBe(user.refreshToken);
    const second = await refresh(first.body.refreshToken);
    expect(second.status).toBe(200);

    const reuse = await refresh(user.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ error: expect.any(String), code: 'auth/token-reuse-detected' });
    // The newest token of the family is revoked too.
    const afterRevocation = await refresh(second.body.refreshToken);
    expect(afterRevocation.status).toBe(401);
    expect(afterRevocation.body.code).toBe('auth/invalid-refresh-token');
  });

  it('keeps other sessions of the user alive when one family is revoked', async () => {
    const user = await t.signUp(project.id, { password: 'password-123' });
    const second = await t.request('POST', `${API(project.id)}/auth/sign-in`, {
      body: { email: user.email, password: 'password-123' },
    });
    const refresh = (refreshToken: string) =>
      t.request('POST', `${API(project.id)}/auth/request-new-access-token`, { body: { refreshToken } });
    await refresh(user.refreshToken);
    expect((await refresh(user.refreshToken)).body.code).toBe('auth/token-reuse-detected');
    expect((await refresh(second.body.refreshToken)).status).toBe(200);
  });

  it('refuses unknown refresh tokens and tokens of another project, and signs out', async () => {
    const user = await t.signUp(project.id);
    const unknown = await t.request('POST', `${API(project.id)}/auth/request-new-access-token`, {
      body: { refreshToken: 'rt_nope' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('auth/invalid-refresh-token');
    const cross = await t.request('POST', `${API(other.id)}/auth/request-new-access-token`, {
      body: { refreshToken: user.refreshToken },
    });
    expect(cross.body.code).toBe('auth/invalid-refresh-token');
    const out = await t.request('POST', `${API(project.id)}/auth/sign-out`, {
      body: { refreshToken: user.refreshToken },
    });
    expect(out.body).toEqual({ success: true });
    const after = await t.request('POST', `${API(project.id)}/auth/request-new-access-token`, {
      body: { refreshToken: user.refreshToken },
    });
    expect(after.body.code).toBe('auth/invalid-refresh-token');
  });

  it('stores neither passwords nor refresh tokens in clear', async () => {
    const user = await t.signUp(project.id, { password: 'very-secret-password' });
    const { Client } = await import('pg');
    const client = new Client({ connectionString: t.app.database.url });
    await client.connect();
    try {
      const users = await client.query(`SELECT password_hash FROM community.users WHERE id = $1`, [user.id]);
      expect(users.rows[0].password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
      const tokens = await client.query(`SELECT token_digest FROM community.refresh_tokens WHERE user_id = $1`, [
        user.id,
      ]);
      expect(JSON.stringify(tokens.rows)).not.toContain(user.refreshToken);
    } finally {
      await client.end();
    }
  });

  it('limits sign-in attempts per project and client address (429 auth/too-many-attempts)', async () => {
    const target = await t.signUp(project.id, { password: 'the real password' });
    const signIn = (projectId: string, password: string, address: string) =>
      t.request('POST', `${API(projectId)}/auth/sign-in`, {
        body: { email: target.email, password },
        headers: { 'x-forwarded-for': address },
      });
    await waitForRoomInWindow(60, 30);
    for (let i = 0; i < 10; i += 1) expect((await signIn(project.id, `guess ${i}`, '203.0.113.50')).status).toBe(401);
    const refused = await signIn(project.id, 'the real password', '203.0.113.50');
    expect(refused).toMatchObject({ status: 429, body: { error: expect.any(String), code: 'auth/too-many-attempts' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(project.id, 'the real password', '198.51.100.50')).status).toBe(200);
  });
});
