import { Clock } from '@acme/community';
import { waitForRoomInWindow } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { FakeClock } from './support/fake-clock';

describe('email verification', () => {
  const clock = new FakeClock();
  let t: CommunityTestApp;
  beforeAll(async () => {
    t = await CommunityTestApp.start({
      env: { VERIFICATION_ATTEMPTS_PER_MINUTE: '8', PUBLIC_URL: 'https://community.example.test' },
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
  const verify = (projectId: string, token: unknown, headers: Record<string, string> = {}) =>
    t.request('POST', `${API(projectId)}/auth/verify-email`, { body: { token }, headers });
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

  it('issued -> consumed: the mailed code verifies the user once', async () => {
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
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(code);
    expect(await isVerified(project.id, user)).toBe(false);
    expect(await verify(project.id, code)).toMatchObject({ status: 200, body: { success: true } });
    expect(await isVerified(project.id, user)).toBe(true);
    // already consumed
    expect(await verify(project.id, code)).toMatchObject({
      status: 400,
      body: { error: expect.any(String), code: 'auth/invalid-or-expired-token' },
    });
  });

  it('expires 5 minutes after issue whether or not used (injectable clock)', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'alphanumeric', tokenLength: 8 });
    const early = await lastCode(project.id);
    clock.advance(4 * 60 * 1000);
    await send(project, user, { tokenFormat: 'alphanumeric', tokenLength: 8 });
    const late = await lastCode(project.id);
    clock.advance(60 * 1000); // early is now exactly 5 minutes old
    expect((await verify(project.id, early)).body.code).toBe('auth/invalid-or-expired-token');
    expect(await isVerified(project.id, user)).toBe(false);
    clock.advance(59 * 1000); // late is 4:59 old
    expect((await verify(project.id, late)).status).toBe(200);
  });

  it('never issued: 400 auth/invalid-or-expired-token', async () => {
    const { project } = await setup();
    for (const token of ['000000', 'a'.repeat(64), 'x']) {
      expect(await verify(project.id, token)).toMatchObject({
        status: 400,
        body: { code: 'auth/invalid-or-expired-token' },
      });
    }
  });

  it('is case-sensitive', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'alpha', tokenLength: 12 });
    const code = await lastCode(project.id);
    const swapped = [...code].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    expect((await verify(project.id, swapped)).body.code).toBe('auth/invalid-or-expired-token');
    expect(swapped).not.toBe(code);
    expect((await verify(project.id, code)).status).toBe(200);
  });

  it('a token verified by several concurrent requests succeeds exactly once', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 8 });
    const code = await lastCode(project.id);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => verify(project.id, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it('consuming one token consumes every outstanding token of the user', async () => {
    const { project, user } = await setup();
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 10 });
    const first = await lastCode(project.id);
    await send(project, user, { tokenFormat: 'numeric', tokenLength: 10 });
    const second = await lastCode(project.id);
    expect((await verify(project.id, second)).status).toBe(200);
    expect((await verify(project.id, first)).body.code).toBe('auth/invalid-or-expired-token');
  });

  it.each([
    [{}, /^[0-9a-f]{64}$/],
    [{ tokenFormat: 'hex', tokenLength: 4 }, /^[0-9a-f]{64}$/],
    [{ tokenFormat: 'numeric', tokenLength: 4 }, /^\d{4}$/],
    [{ tokenFormat: 'numeric', tokenLength: 12 }, /^\d{12}$/],
    [{ tokenFormat: 'alpha' }, /^[A-Za-z]{6}$/],
    [{ tokenFormat: 'alphanumeric', tokenLength: 11 }, /^[A-Za-z0-9]{11}$/],
  ])('issues tokens in format %j', async (body, pattern) => {
    const { project, user } = await setup();
    await send(project, user, body);
    expect(await lastCode(project.id)).toMatch(pattern);
  });

  it('answers success without mailing when the user is already verified', async () => {
    const { project, user } = await setup();
    await send(project, user);
    await verify(project.id, await lastCode(project.id));
    expect(await send(project, user)).toMatchObject({ status: 200, body: { success: true } });
    expect(await outbox(project.id)).toHaveLength(1);
  });

  it('link mode: the mailed link verifies and redirects; a spent link redirects with the error', async () => {
    const { project, user } = await setup();
    await send(project, user, { mode: 'link', redirectUrl: 'https://app.example.com/done?x=1' });
    const [mail] = await outbox(project.id);
    const link = new URL(/(https:\/\/community\.example\.test\S+)/.exec(mail.text)?.[1] as string);
    expect(link.pathname).toBe(`/api/v6/${project.id}/api/v7/auth/verify-email-link`);
    expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);
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

  it('link mode redirects only to the URL the token was mailed with (no open redirect)', async () => {
    const { project, user } = await setup();
    await send(project, user, { mode: 'link', redirectUrl: 'https://app.example.com/done' });
    const [mail] = await outbox(project.id);
    const link = new URL(/(https:\/\/community\.example\.test\S+)/.exec(mail.text)?.[1] as string);
    const token = link.searchParams.get('token') as string;
    const elsewhere = (redirect: string, tokenValue = token) =>
      t.request('GET', `${link.pathname}?${new URLSearchParams({ token: tokenValue, redirect }).toString()}`);
    // A made-up token with any address: a plain JSON error, no Location.
    const madeUp = await elsewhere('https://evil.example.net/phish', 'f'.repeat(64));
    expect(madeUp).toMatchObject({ status: 400, body: { code: 'auth/invalid-or-expired-token' } });
    expect(madeUp.headers.get('location')).toBeNull();
    // The real token with another address: verified, answered in JSON, not redirected.
    const swapped = await elsewhere('https://evil.example.net/phish');
    expect(swapped).toMatchObject({ status: 200, body: { success: true } });
    expect(swapped.headers.get('location')).toBeNull();
    expect(await isVerified(project.id, user)).toBe(true);
    // The address it was issued with still gets the spent-link redirect.
    expect((await elsewhere('https://app.example.com/done')).headers.get('location')).toBe(
      'https://app.example.com/done?verified=false&error=invalid-or-expired-token',
    );
  });

  it('limits verify attempts per project and client address (429 auth/too-many-attempts)', async () => {
    const { project, user } = await setup();
    const other = await setup();
    await send(project, user, { tokenFormat: 'numeric' });
    const code = await lastCode(project.id);
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    await waitForRoomInWindow(60, 20);
    for (let i = 0; i < 8; i += 1) expect((await verify(project.id, `x${i}`, attacker)).status).toBe(400);
    const refused = await verify(project.id, code, attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'auth/too-many-attempts' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address in the same project, and the same address in another project, are unaffected.
    expect((await verify(other.project.id, 'nope', attacker)).status).toBe(400);
    expect((await verify(project.id, code, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200);
  });

  it('a token of one project does not verify in another, nor get consumed there', async () => {
    const a = await setup();
    const b = await setup();
    await send(a.project, a.user, { tokenFormat: 'numeric' });
    const code = await lastCode(a.project.id);
    expect((await verify(b.project.id, code)).body.code).toBe('auth/invalid-or-expired-token');
    expect(await outbox(b.project.id)).toEqual([]);
    expect((await verify(a.project.id, code)).status).toBe(200);
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
    t = await CommunityTestApp.start({ env: { VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR: '5' } });
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
