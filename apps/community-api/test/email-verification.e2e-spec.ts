import { Clock } from '@acme/community';
import { waitForRoomInWindow } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';
import { FakeClock } from './support/fake-clock';

describe('email verification', () => {
  const clock = new FakeClock();
  let t: CommunityTestApp;
  beforeAll(async () => {
    t = await CommunityTestApp.start({
      // TRUSTED_PROXIES: the tests act as a local proxy telling each client's address (X-Forwarded-For).
      env: {
        VERIFICATION_ATTEMPTS_PER_MINUTE: '8',
        PUBLIC_URL: 'https://community.example.test',
        TRUSTED_PROXIES: '127.0.0.1',
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(async () => t?.close());

  async function setup(): Promise<{ project: TestProject; user: TestUser }> {
    const project = await t.createProject([]);
    return { project, user: await t.signUp(project.id) };
  }
  const send = (project: TestProject, user: TestUser, body: Record<string, unknown> = {}) =>
    t.request('POST', `${API(project.id)}/auth/send-verification`, { token: user.accessToken, body });
  /** verify-email as `who` (their access token) and with `extra` body fields (`email`). */
  const verify = (
    projectId: string,
    token: unknown,
    who: Partial<TestUser> = {},
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    t.request('POST', `${API(projectId)}/auth/verify-email`, {
      body: { token, ...extra },
      token: who.accessToken,
      headers,
    });
  const allowOrigins = async (project: TestProject, redirectOrigins: string[]) =>
    expect((await t.admin('PATCH', `/projects/${project.id}`, { redirectOrigins })).status).toBe(200);
  const outbox = async (projectId: string) =>
    (await t.admin('GET', `/projects/${projectId}/outbox`)).body as {
      to: string;
      subject: string;
      text: string;
      html: string;
      sentAt: string;
    }[];
  const lastCode = async (projectId: string) =>
    /code for .* is: (\S+)/.exec((await outbox(projectId))[0].text)?.[1] as string;
  const isVerified = async (projectId: string, user: TestUser) =>
    (await t.request('GET', `${API(projectId)}/auth/me`, { token: user.accessToken })).body.isVerified;

  it('issued -> consumed: the mailed code verifies its user once', async () => {
    const { project, user } = await setup();
    expect(await send(project, user, { tokenFormat: 'numeric' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const [mail] = await outbox(project.id);
    expect(mail).toMatchObject({
      to: user.email,
      subject: 'Test project: verify your email address',
      sentAt: expect.any(String),
    });
    const code = await lastCode(project.id);
    expect(code).toMatch(/^\d{12}$/);
    expect(mail.html).toContain(code);
    expect(await isVerified(project.id, user)).toBe(false);
    expect(await verify(project.id, code, user)).toMatchObject({ status: 200, body: { success: true } });
    expect(await isVerified(project.id, user)).toBe(true);
    // already consumed
    expect(await verify(project.id, code, user)).toMatchObject({
      status: 400,
      body: { error: expect.any(String), code: 'auth/invalid-or-expired-token' },
    });
  });

  it('a short code is checked with the user the request names: access token, email, or neither', async () => {
    const { project, user } = await setup();
    const other = await t.signUp(project.id);
    await send(project, user, { tokenFormat: 'alphanumeric' });
    const code = await lastCode(project.id);
    // Nobody named, or somebody else: the code matches nothing, and stays live.
    expect((await verify(project.id, code)).body.code).toBe('auth/invalid-or-expired-token');
    expect((await verify(project.id, code, other)).body.code).toBe('auth/invalid-or-expired-token');
    expect((await verify(project.id, code, {}, { email: other.email })).body.code).toBe(
      'auth/invalid-or-expired-token',
    );
    expect((await verify(project.id, code, user, { email: other.email })).body.code).toBe(
      'auth/invalid-or-expired-token',
    );
    expect(await isVerified(project.id, user)).toBe(false);
    // The address it was sent to (any case, as at sign-up) verifies it.
    expect(await verify(project.id, code, {}, { email: user.email.toUpperCase() })).toMatchObject({ status: 200 });
    expect(await isVerified(project.id, user)).toBe(true);
    expect(await isVerified(project.id, other)).toBe(false);
  });

  it('a bad access token on verify-email is 403 auth/forbidden, as everywhere', async () => {
    const { project } = await setup();
    for (const token of ['junk', project.serviceKey]) {
      const response = await t.request('POST', `${API(project.id)}/auth/verify-email`, {
        body: { token: '123456789012' },
        token,
      });
      expect(response).toMatchObject({ status: 403, body: { code: 'auth/forbidden' } });
    }
  });

  it('a hex code names its user: it verifies with no credentials, and only as that user', async () => {
    const { project, user } = await setup();
    const other = await t.signUp(project.id);
    await send(project, user);
    const code = await lastCode(project.id);
    expect(code.slice(0, 32)).toBe(user.id.replace(/-/g, ''));
    expect((await verify(project.id, code, other)).body.code).toBe('auth/invalid-or-expired-token');
    expect((await verify(project.id, code, {}, { email: other.email })).body.code).toBe(
      'auth/invalid-or-expired-token',
    );
    // Another user's id spliced in front of the secret: not that user's code.
    expect((await verify(project.id, `${other.id.replace(/-/g, '')}${code.slice(32)}`)).status).toBe(400);
    expect(await verify(project.id, code)).toMatchObject({ status: 200, body: { success: true } });
    expect(await isVerified(project.id, user)).toBe(true);
  });

  it('expires 5 minutes after issue whether or not used (injectable clock)', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'alphanumeric', tokenLength: 8 });
    const early = await lastCode(project.id);
    clock.advance(5 * 60 * 1000); // exactly 5 minutes old
    expect((await verify(project.id, early, user)).body.code).toBe('auth/invalid-or-expired-token');
    expect(await isVerified(project.id, user)).toBe(false);
    await send(project, user, { tokenFormat: 'alphanumeric', tokenLength: 8 });
    const late = await lastCode(project.id);
    clock.advance(5 * 60 * 1000 - 1000); // 4:59 old
    expect((await verify(project.id, late, user)).status).toBe(200);
  });

  it('never issued: 400 auth/invalid-or-expired-token', async () => {
    const { project, user } = await setup();
    for (const token of ['000000', 'a'.repeat(64), 'x', `${user.id.replace(/-/g, '')}${'0'.repeat(32)}`]) {
      for (const who of [{}, user]) {
        expect(await verify(project.id, token, who)).toMatchObject({
          status: 400,
          body: { code: 'auth/invalid-or-expired-token' },
        });
      }
    }
  });

  it('is case-sensitive', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'alpha', tokenLength: 12 });
    const code = await lastCode(project.id);
    const swapped = [...code].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    expect((await verify(project.id, swapped, user)).body.code).toBe('auth/invalid-or-expired-token');
    expect(swapped).not.toBe(code);
    expect((await verify(project.id, code, user)).status).toBe(200);
  });

  it('a token verified by several concurrent requests succeeds exactly once', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 8 });
    const code = await lastCode(project.id);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => verify(project.id, code, user)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it('one live code per user: a new send replaces the old one', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 10 });
    const first = await lastCode(project.id);
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 10 });
    const second = await lastCode(project.id);
    expect((await verify(project.id, first, user)).body.code).toBe('auth/invalid-or-expired-token');
    expect(await isVerified(project.id, user)).toBe(false);
    expect((await verify(project.id, second, user)).status).toBe(200);
    const live = await queryDb<{ n: number }>(
      t.app.database.url,
      `SELECT count(*)::int AS n FROM community.verification_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(live).toEqual([{ n: 1 }]);
  });

  it.each([
    [{}, /^[0-9a-f]{64}$/],
    [{ tokenFormat: 'hex', tokenLength: 4 }, /^[0-9a-f]{64}$/],
    [{ tokenFormat: 'numeric', tokenLength: 4 }, /^\d{12}$/],
    [{ tokenFormat: 'numeric', tokenLength: 12 }, /^\d{12}$/],
    [{ tokenFormat: 'alpha' }, /^[A-Za-z]{8}$/],
    [{ tokenFormat: 'alpha', tokenLength: 10 }, /^[A-Za-z]{10}$/],
    [{ tokenFormat: 'alphanumeric', tokenLength: 4 }, /^[A-Za-z0-9]{8}$/],
    [{ tokenFormat: 'alphanumeric', tokenLength: 11 }, /^[A-Za-z0-9]{11}$/],
  ])('the server chooses the code: %j gives %s', async (body, pattern) => {
    const { project, user } = await setup();
    await send(project, user, body);
    expect(await lastCode(project.id)).toMatch(pattern);
  });

  it('answers success without mailing when the user is already verified', async () => {
    const { project, user } = await setup();
    await send(project, user);
    expect((await verify(project.id, await lastCode(project.id))).status).toBe(200);
    expect(await send(project, user)).toMatchObject({ status: 200, body: { success: true } });
    expect(await outbox(project.id)).toHaveLength(1);
  });

  it('link mode: the mailed link names its user, verifies and redirects; a spent link redirects with the error', async () => {
    const { project, user } = await setup();
    await allowOrigins(project, ['https://app.example.com']);
    await send(project, user, {
      mode: 'link',
      tokenFormat: 'numeric',
      redirectUrl: 'https://app.example.com/done?x=1',
    });
    const [mail] = await outbox(project.id);
    const link = new URL(/(https:\/\/community\.example\.test\S+)/.exec(mail.text)?.[1] as string);
    expect(link.pathname).toBe(`/api/v6/${project.id}/api/v7/auth/verify-email-link`);
    expect(link.searchParams.get('token')).toMatch(new RegExp(`^${user.id.replace(/-/g, '')}[0-9a-f]{32}$`));
    expect(link.searchParams.get('redirect')).toBe('https://app.example.com/done?x=1');
    const path = `${link.pathname}${link.search}`;
    const first = await t.request('GET', path);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('https://app.example.com/done?x=1&verified=true');
    expect(await isVerified(project.id, user)).toBe(true);
    const again = await t.request('GET', path);
    expect(again.headers.get('location')).toBe(
      'https://app.example.com/done?x=1&verified=false&error=invalid-or-expired-token',
    );
    const noRedirect = await t.request('GET', `${link.pathname}?token=${link.searchParams.get('token')}`);
    expect(noRedirect).toMatchObject({ status: 400, body: { code: 'auth/invalid-or-expired-token' } });
    const badRedirect = await t.request('GET', `${link.pathname}?token=x&redirect=javascript:alert(1)`);
    expect(badRedirect.status).toBe(400);
  });

  it('link mode without an allow-list: no redirect is mailed and the link answers JSON', async () => {
    const { project, user } = await setup();
    await send(project, user, { mode: 'link', redirectUrl: 'https://app.example.com/done' });
    const [mail] = await outbox(project.id);
    expect(mail.text).not.toContain('app.example.com');
    const link = new URL(/(https:\/\/community\.example\.test\S+)/.exec(mail.text)?.[1] as string);
    expect(link.searchParams.has('redirect')).toBe(false);
    const opened = await t.request('GET', `${link.pathname}${link.search}`);
    expect(opened).toMatchObject({ status: 200, body: { success: true } });
    expect(opened.headers.get('location')).toBeNull();
    expect(await isVerified(project.id, user)).toBe(true);
  });

  it('limits verify attempts per project and client address (429 auth/too-many-attempts)', async () => {
    const { project, user } = await setup();
    const other = await setup();
    await send(project, user, { tokenFormat: 'numeric' });
    const code = await lastCode(project.id);
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    await waitForRoomInWindow(60, 20);
    for (let i = 0; i < 8; i += 1) expect((await verify(project.id, `x${i}`, user, {}, attacker)).status).toBe(400);
    const refused = await verify(project.id, code, user, {}, attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'auth/too-many-attempts' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address in the same project, and the same address in another project, are unaffected.
    expect((await verify(other.project.id, 'nope', {}, {}, attacker)).status).toBe(400);
    expect((await verify(project.id, code, user, {}, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200);
  });

  it('a token of one project does not verify in another, nor get consumed there', async () => {
    const a = await setup();
    const b = await setup();
    await send(a.project, a.user, { tokenFormat: 'numeric' });
    const code = await lastCode(a.project.id);
    expect((await verify(b.project.id, code, {}, { email: a.user.email })).body.code).toBe(
      'auth/invalid-or-expired-token',
    );
    expect(await outbox(b.project.id)).toEqual([]);
    expect((await verify(a.project.id, code, a.user)).status).toBe(200);
  });

  it('send-verification needs an end-user token', async () => {
    const { project } = await setup();
    const none = await t.request('POST', `${API(project.id)}/auth/send-verification`, { body: {} });
    expect(none).toMatchObject({ status: 401, body: { code: 'auth/unauthorized' } });
    for (const key of [project.serviceKey, project.masterKey]) {
      const withKey = await t.request('POST', `${API(project.id)}/auth/send-verification`, { body: {}, token: key });
      expect(withKey).toMatchObject({ status: 403, body: { code: 'auth/forbidden' } });
    }
  });

  it('stores tokens only as HMAC digests', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 12 });
    const code = await lastCode(project.id);
    const { Client } = await import('pg');
    const client = new Client({ connectionString: t.app.database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT * FROM community.verification_tokens WHERE project_id = $1`, [
        project.id,
      ]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(code);
      expect(rows[0].token_digest).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await client.end();
    }
  });
});

describe('verification guesses spread over many addresses', () => {
  let t: CommunityTestApp;
  beforeAll(async () => {
    t = await CommunityTestApp.start({
      env: { VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR: '5', TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(async () => t?.close());

  it('are bounded per project across all addresses (429 auth/too-many-attempts), other projects unaffected', async () => {
    const project = await t.createProject();
    const other = await t.createProject();
    const guess = (projectId: string, address: string) =>
      t.request('POST', `${API(projectId)}/auth/verify-email`, {
        body: { token: '123456' },
        headers: { 'x-forwarded-for': address },
      });
    const statuses = [];
    for (let i = 1; i <= 6; i += 1) statuses.push((await guess(project.id, `203.0.113.${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await guess(other.id, '203.0.113.99')).status).toBe(400);
  });
});
