import { createECDH, randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
const ece = require('http_ece') as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';

interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local HTTP endpoint standing in for a browser vendor's push service. */
async function startPushService(): Promise<{ server: Server; base: string; received: PushRequest[] }> {
  const received: PushRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      const status = request.url?.includes('/gone/') ? 410 : request.url?.includes('/broken/') ? 500 : 201;
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A browser-side subscription: a P-256 key pair and an auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    authSecret,
    body: {
      platform: 'web',
      subscription: {
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      },
    },
  };
}

describe('web push delivery', () => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  beforeAll(async () => {
    push = await startPushService();
    // The stand-in push service listens on loopback, which production refuses (SSRF): allowed here.
    t = await CommunityTestApp.start({
      env: { PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
    });
    project = await t.createProject(['push']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => push?.server.close(resolve));
  });

  const register = (body: unknown) =>
    t.request('POST', `${API(project.id)}/push-notifications/devices`, { token: user.accessToken, body });
  const send = (userId: string, message: Record<string, unknown>) =>
    t.admin('POST', `/projects/${project.id}/push-notifications`, { userId, ...message });

  it('encrypts and signs a notification that the subscription owner can decrypt', async () => {
    const browser = browserSubscription(`${push.base}/ok/device-1`);
    expect((await register(browser.body)).status).toBe(200);
    expect((await register({ platform: 'ios', token: 'apns-not-delivered' })).status).toBe(200);
    const report = await send(user.id, { title: 'Hello', body: 'A new event near you', data: { eventId: 'e1' } });
    expect(report).toMatchObject({ status: 200, body: { delivered: 1, failed: 0, removed: 0, skipped: 1 } });

    const delivered = push.received.find((r) => r.path === '/ok/device-1');
    expect(delivered).toBeDefined();
    const { headers, body } = delivered as PushRequest;
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(headers['ttl']).toBe('3600');
    const publicKey = (await t.request('GET', `${API(project.id)}/push-notifications/vapid-public-key`)).body.publicKey;
    expect(headers['authorization']).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    const plaintext = ece.decrypt(body, {
      version: 'aes128gcm',
      privateKey: browser.ecdh,
      authSecret: browser.authSecret.toString('base64url'),
    });
    expect(JSON.parse(plaintext.toString('utf8'))).toEqual({
      title: 'Hello',
      body: 'A new event near you',
      data: { eventId: 'e1' },
    });
  });

  it('removes subscriptions the push service reports gone and counts other failures', async () => {
    const other = await t.signUp(project.id);
    const registerFor = (body: unknown) =>
      t.request('POST', `${API(project.id)}/push-notifications/devices`, { token: other.accessToken, body });
    await registerFor(browserSubscription(`${push.base}/gone/device-2`).body);
    await registerFor(browserSubscription(`${push.base}/broken/device-3`).body);
    await registerFor({
      platform: 'web',
      subscription: { endpoint: `${push.base}/ok/bad-keys`, keys: { p256dh: 'notapoint', auth: 'short' } },
    });
    const report = await send(other.id, { title: 'Ping' });
    expect(report.body).toEqual({ delivered: 0, failed: 2, removed: 1, skipped: 0 });
    const rows = await queryDb<{ device_key: string }>(
      t.app.database.url,
      `SELECT device_key FROM community.push_devices WHERE user_id = $1`,
      [other.id],
    );
    expect(rows.map((r) => r.device_key).sort()).toEqual([`${push.base}/broken/device-3`, `${push.base}/ok/bad-keys`]);
  });

  it('sends nothing to users of another project and validates the operator body', async () => {
    const elsewhere = await t.createProject(['push']);
    const response = await t.admin('POST', `/projects/${elsewhere.id}/push-notifications`, {
      userId: user.id,
      title: 'x',
    });
    expect(response).toMatchObject({ status: 404, body: { code: 'user/not-found' } });
    expect(
      (await t.admin('POST', `/projects/${project.id}/push-notifications`, { userId: 'nope', title: 'x' })).status,
    ).toBe(400);
  });
});

describe('web push endpoints may not reach this server or its network (SSRF)', () => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  let t: CommunityTestApp;
  beforeAll(async () => {
    push = await startPushService();
    t = await CommunityTestApp.start({ env: { PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => push?.server.close(resolve));
  });

  it.each([
    'https://127.0.0.1/push/1',
    'https://10.1.2.3/push/1',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/push/1',
    'https://[fd00::1]/push/1',
    'https://[::ffff:192.168.1.1]/push/1',
    'https://localhost/push/1',
    'https://metadata.google.internal/push/1',
    'https://0.0.0.0/push/1',
  ])('refuses to register %s', async (endpoint) => {
    const project = await t.createProject(['push']);
    const user = await t.signUp(project.id);
    const response = await t.request('POST', `${API(project.id)}/push-notifications/devices`, {
      token: user.accessToken,
      body: browserSubscription(endpoint).body,
    });
    expect(response).toMatchObject({
      status: 400,
      body: { code: 'push-device/invalid-body', field: 'subscription.endpoint' },
    });
  });

  it('never contacts a stored private endpoint when sending', async () => {
    const project = await t.createProject(['push']);
    const user = await t.signUp(project.id);
    const subscription = browserSubscription(`${push.base}/ok/stored-before-the-rule`).body.subscription;
    await queryDb(
      t.app.database.url,
      `INSERT INTO community.push_devices (project_id, user_id, platform, device_key, p256dh, auth, last_seen_at) VALUES ($1, $2, 'web', $3, $4, $5, now())`,
      [project.id, user.id, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth],
    );
    const report = await t.admin('POST', `/projects/${project.id}/push-notifications`, { userId: user.id, title: 'x' });
    expect(report.body).toEqual({ delivered: 0, failed: 1, removed: 0, skipped: 0 });
    expect(push.received).toEqual([]);
  });
});

describe('web push: bounded sends (issue 25 item 5)', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let server: Server;
  let base: string;
  let inFlight = 0;
  let peakInFlight = 0;
  const trickles: NodeJS.Timeout[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url?.includes('/trickle/')) {
          // Headers at once, then one byte every 100 ms, never ending: no socket is ever idle.
          response.writeHead(201, { 'content-type': 'text/plain' });
          trickles.push(setInterval(() => response.write('.'), 100));
          return;
        }
        inFlight += 1;
        peakInFlight = Math.max(peakInFlight, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          response.writeHead(201).end();
        }, 400);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await CommunityTestApp.start({
      env: { PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', PUSH_TIMEOUT_MS: '1000' },
    });
    project = await t.createProject(['push']);
  });
  afterAll(async () => {
    trickles.forEach(clearInterval);
    await t?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const registerAs = (token: string, body: unknown) =>
    t.request('POST', `${API(project.id)}/push-notifications/devices`, { token, body });
  const send = (userId: string) =>
    t.admin('POST', `/projects/${project.id}/push-notifications`, { userId, title: 'Ping' });

  it('cuts off an endpoint that trickles its answer at the total deadline (PUSH_TIMEOUT_MS)', async () => {
    const user = await t.signUp(project.id);
    expect((await registerAs(user.accessToken, browserSubscription(`${base}/trickle/1`).body)).status).toBe(200);
    const started = Date.now();
    const report = await send(user.id);
    const elapsed = Date.now() - started;
    expect(report.body).toEqual({ delivered: 0, failed: 1, removed: 0, skipped: 0 });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('sends to a user’s devices 4 at a time, not one after another', async () => {
    const user = await t.signUp(project.id);
    for (let i = 0; i < 8; i++)
      expect((await registerAs(user.accessToken, browserSubscription(`${base}/slow/${i}`).body)).status).toBe(200);
    peakInFlight = 0;
    const started = Date.now();
    const report = await send(user.id);
    const elapsed = Date.now() - started;
    expect(report.body).toEqual({ delivered: 8, failed: 0, removed: 0, skipped: 0 });
    expect(peakInFlight).toBe(4);
    // One after another: 8 x 400 ms; 4 at a time: 2 x 400 ms.
    expect(elapsed).toBeLessThan(2_500);
  });

  it('caps devices per user at 20: a 21st is a 400 push-device/invalid-body, re-registering one is fine', async () => {
    const user = await t.signUp(project.id);
    for (let i = 0; i < 20; i++)
      expect((await registerAs(user.accessToken, { platform: 'android', token: `fcm-${i}` })).status).toBe(200);
    const refused = await registerAs(user.accessToken, { platform: 'ios', token: 'apns-21' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'push-device/invalid-body' });
    expect(refused.body.error).toContain('at most 20');
    expect((await registerAs(user.accessToken, { platform: 'android', token: 'fcm-3' })).status).toBe(200);
    const rows = await queryDb<{ n: string }>(
      t.app.database.url,
      `SELECT count(*) AS n FROM community.push_devices WHERE user_id = $1`,
      [user.id],
    );
    expect(Number(rows[0]?.n)).toBe(20);
  });
});
