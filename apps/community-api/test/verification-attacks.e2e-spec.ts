import { randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createTestDatabase } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';

/**
 * Email verification as an attacker works it, over HTTP only, against the real app (docs/security.md,
 * community-api rows). Each test performs the attack and asserts the refusal.
 */

const outboxOf = async (t: CommunityTestApp, projectId: string) =>
  (await t.admin('GET', `/projects/${projectId}/outbox`)).body as { to: string; text: string; html: string }[];
const linkIn = (text: string) => new URL(/(https?:\/\/\S+verify-email-link\S*)/.exec(text)?.[1] as string);

describe('verification codes cannot be guessed (the issue-24 budget)', () => {
  let t: CommunityTestApp;
  beforeAll(async () => {
    // Attempt limits far above the budget: every guess below is judged by the code rules, not refused as a flood.
    t = await CommunityTestApp.start({
      env: {
        VERIFICATION_ATTEMPTS_PER_MINUTE: '100000',
        VERIFICATION_ATTEMPTS_PER_HOUR: '100000',
        VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR: '100000',
      },
    });
  });
  afterAll(async () => t?.close());

  const send = (projectId: string, user: TestUser) =>
    t.request('POST', `${API(projectId)}/auth/send-verification`, {
      token: user.accessToken,
      body: { tokenFormat: 'numeric', tokenLength: 4 },
    });

  it('30 sign-ups with addresses the prober does not own, 5 sends each, 150 blind guesses: 0 accounts verified', async () => {
    const project = await t.createProject([]);
    const victims: TestUser[] = [];
    for (let i = 0; i < 30; i += 1)
      victims.push(await t.signUp(project.id, { email: `victim${i}-${Date.now()}@not-ours.example` }));
    for (const victim of victims)
      for (let s = 0; s < 5; s += 1) expect((await send(project.id, victim)).status).toBe(200);
    // 150 distinct 4-digit guesses (the shortest code the wire lets a client ask for), each aimed at one victim
    // with that victim's own access token: the strongest claim the prober can make.
    const guesses = new Set<string>();
    while (guesses.size < 150) guesses.add(String(randomInt(10000)).padStart(4, '0'));
    const statuses = await Promise.all(
      [...guesses].map((token, i) =>
        t
          .request('POST', `${API(project.id)}/auth/verify-email`, {
            body: { token },
            token: victims[i % victims.length].accessToken,
          })
          .then((response) => response.status),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([400]));
    const verified = await queryDb<{ n: number }>(
      t.app.database.url,
      `SELECT count(*)::int AS n FROM community.users WHERE project_id = $1 AND is_verified`,
      [project.id],
    );
    expect(verified).toEqual([{ n: 0 }]);
    // What was mailed (the outbox lists the newest 100 of the 150): never a 4-digit code; one live code per victim.
    const codes = (await outboxOf(t, project.id)).map((mail) => /is: (\S+)/.exec(mail.text)?.[1]);
    expect(codes).toHaveLength(100);
    for (const code of codes) expect(code).toMatch(/^\d{12}$/);
    const live = await queryDb<{ n: number }>(
      t.app.database.url,
      `SELECT count(*)::int AS n FROM community.verification_tokens WHERE project_id = $1 AND consumed_at IS NULL`,
      [project.id],
    );
    expect(live).toEqual([{ n: 30 }]);
  });

  it("a victim's real code, submitted under the prober's own account or under no one, verifies nobody", async () => {
    const project = await t.createProject([]);
    const prober = await t.signUp(project.id);
    const victim = await t.signUp(project.id, { email: `target-${Date.now()}@not-ours.example` });
    expect((await send(project.id, victim)).status).toBe(200);
    const code = /is: (\S+)/.exec((await outboxOf(t, project.id))[0].text)?.[1] as string;
    for (const options of [{}, { token: prober.accessToken }]) {
      const answer = await t.request('POST', `${API(project.id)}/auth/verify-email`, {
        body: { token: code },
        ...options,
      });
      expect(answer).toMatchObject({ status: 400, body: { code: 'auth/invalid-or-expired-token' } });
    }
    const users = await queryDb<{ is_verified: boolean }>(
      t.app.database.url,
      `SELECT is_verified FROM community.users WHERE project_id = $1`,
      [project.id],
    );
    expect(users).toEqual([{ is_verified: false }, { is_verified: false }]);
  });
});

/** POST with a Host header of the attacker's choosing (fetch always sends the real one). */
function postWithHost(base: string, path: string, host: string, accessToken: string, body: unknown): Promise<number> {
  const url = new URL(path, base);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'x-forwarded-host': host,
          'x-forwarded-proto': 'http',
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('mailed links lead only to our own origin', () => {
  let t: CommunityTestApp;
  beforeAll(async () => {
    // A development run: no PUBLIC_URL.
    t = await CommunityTestApp.start();
  });
  afterAll(async () => t?.close());

  async function victimLink(project: TestProject, body: Record<string, unknown>): Promise<URL> {
    const victim = await t.signUp(project.id, { email: `phish-${Date.now()}@not-ours.example` });
    const path = `${API(project.id)}/auth/send-verification`;
    expect(await postWithHost(t.url, path, 'evil.example', victim.accessToken, { mode: 'link', ...body })).toBe(200);
    const [mail] = await outboxOf(t, project.id);
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).not.toContain('evil.example');
    return linkIn(mail.text);
  }

  it('Host-header injection: the link is built from PUBLIC_URL or localhost:PORT, never from Host', async () => {
    const project = await t.createProject([]);
    const link = await victimLink(project, {});
    expect(link.origin).toBe('http://localhost:3002');
    expect(link.pathname).toBe(`/api/v6/${project.id}/api/v7/auth/verify-email-link`);
  });

  it('redirect to a foreign origin: not mailed, and the link endpoint will not bounce there', async () => {
    const project = await t.createProject([]);
    const allowed = await t.admin('PATCH', `/projects/${project.id}`, { redirectOrigins: ['https://app.example.com'] });
    expect(allowed).toMatchObject({ status: 200, body: { redirectOrigins: ['https://app.example.com'] } });
    const link = await victimLink(project, { redirectUrl: 'https://phish.example/login' });
    expect(link.toString()).not.toContain('phish');
    expect(link.searchParams.has('redirect')).toBe(false);
    // The attacker adds the redirect to the genuine link: still no bounce to the foreign origin.
    for (const redirect of [
      'https://phish.example/login',
      'https://app.example.com.phish.example/',
      'https://user@phish.example/',
    ]) {
      const tampered = new URL(link);
      tampered.searchParams.set('redirect', redirect);
      const opened = await t.request('GET', `${tampered.pathname}${tampered.search}`);
      expect(opened.headers.get('location')).toBeNull();
      expect([200, 400]).toContain(opened.status);
    }
    // A made-up token with the foreign redirect: a plain JSON error.
    const madeUp = await t.request(
      'GET',
      `${link.pathname}?${new URLSearchParams({ token: 'f'.repeat(64), redirect: 'https://phish.example/x' }).toString()}`,
    );
    expect(madeUp).toMatchObject({ status: 400, body: { code: 'auth/invalid-or-expired-token' } });
    expect(madeUp.headers.get('location')).toBeNull();
  });

  it('an allowed origin still gets the redirect (path and query kept)', async () => {
    const project = await t.createProject([]);
    await t.admin('PATCH', `/projects/${project.id}`, { redirectOrigins: ['https://App.Example.com:443/'] });
    const link = await victimLink(project, { redirectUrl: 'https://app.example.com/welcome?from=mail' });
    expect(link.searchParams.get('redirect')).toBe('https://app.example.com/welcome?from=mail');
    const opened = await t.request('GET', `${link.pathname}${link.search}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('https://app.example.com/welcome?from=mail&verified=true');
  });
});

describe('NODE_ENV=production', () => {
  it('refuses to start without PUBLIC_URL, naming it', async () => {
    const database = await createTestDatabase('community-api');
    try {
      const outcome = await CommunityTestApp.startOutcome({ env: { NODE_ENV: 'production' }, database });
      expect(outcome).toMatch(/PUBLIC_URL: PUBLIC_URL must be set when NODE_ENV=production/);
    } finally {
      await database.drop();
    }
  });

  it('builds links from PUBLIC_URL whatever Host says', async () => {
    const t = await CommunityTestApp.start({
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://community.example.test/' },
    });
    try {
      const project = await t.createProject([]);
      const user = await t.signUp(project.id);
      const path = `${API(project.id)}/auth/send-verification`;
      expect(await postWithHost(t.url, path, 'evil.example', user.accessToken, { mode: 'link' })).toBe(200);
      const [mail] = await outboxOf(t, project.id);
      expect(linkIn(mail.text).origin).toBe('https://community.example.test');
    } finally {
      await t.close();
    }
  });
});
