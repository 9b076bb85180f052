import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';

interface DeviceRow {
  id: string;
  user_id: string;
  platform: string;
  device_key: string;
  p256dh: string | null;
  auth: string | null;
  last_seen_at: Date;
}

const web = (endpoint: string, p256dh = 'BPubKey-1', auth = 'auth-1') => ({
  platform: 'web',
  subscription: { endpoint, keys: { p256dh, auth } },
});

describe('push devices', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await CommunityTestApp.start();
    project = await t.createProject(['push']);
    alice = await t.signUp(project.id);
    bob = await t.signUp(project.id);
  });
  afterAll(async () => t?.close());

  const register = (projectId: string, token: string | undefined, body: unknown) =>
    t.request('POST', `${API(projectId)}/push-notifications/devices`, { token, body });
  const devices = (projectId: string, key: string) =>
    queryDb<DeviceRow>(
      t.app.database.url,
      `SELECT * FROM community.push_devices WHERE project_id = $1 AND device_key = $2`,
      [projectId, key],
    );

  it('device not yet known: registered to the caller, 200 with an empty body', async () => {
    const response = await register(project.id, alice.accessToken, { platform: 'ios', token: 'apns-token-1' });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(await devices(project.id, 'apns-token-1')).toEqual([
      expect.objectContaining({ user_id: alice.id, platform: 'ios' }),
    ]);
  });

  it('same device re-registered: the same record is updated, no duplicate', async () => {
    const endpoint = 'https://push.example.com/send/abc';
    await register(project.id, alice.accessToken, web(endpoint, 'BOldKey', 'oldauth'));
    const [before] = await devices(project.id, endpoint);
    const again = await register(project.id, alice.accessToken, web(endpoint, 'BNewKey', 'newauth'));
    expect(again.status).toBe(200);
    const after = await devices(project.id, endpoint);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before.id, user_id: alice.id, p256dh: 'BNewKey', auth: 'newauth' });
    expect(after[0].last_seen_at.getTime()).toBeGreaterThanOrEqual(before.last_seen_at.getTime());
  });

  it('device registered by a different user: reassigned to the caller', async () => {
    await register(project.id, alice.accessToken, { platform: 'android', token: 'fcm-shared' });
    const [held] = await devices(project.id, 'fcm-shared');
    expect((await register(project.id, bob.accessToken, { platform: 'android', token: 'fcm-shared' })).status).toBe(
      200,
    );
    expect(await devices(project.id, 'fcm-shared')).toEqual([
      expect.objectContaining({ id: held.id, user_id: bob.id }),
    ]);
  });

  it('concurrent registrations of one device by several users leave exactly one record', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => t.signUp(project.id)));
    const responses = await Promise.all(
      [...users, ...users].map((user) =>
        register(project.id, user.accessToken, { platform: 'ios', token: 'raced-token' }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rows = await devices(project.id, 'raced-token');
    expect(rows).toHaveLength(1);
    expect(users.map((u) => u.id)).toContain(rows[0].user_id);
  });

  it('accepts the subscription keys as properties named keys.p256dh / keys.auth', async () => {
    const endpoint = 'https://push.example.com/send/dotted';
    const body = {
      platform: 'web',
      subscription: { endpoint, 'keys.p256dh': 'BDotted', 'keys.auth': 'dotauth', expirationTime: null },
    };
    expect((await register(project.id, alice.accessToken, body)).status).toBe(200);
    expect(await devices(project.id, endpoint)).toEqual([
      expect.objectContaining({ p256dh: 'BDotted', auth: 'dotauth' }),
    ]);
  });

  it('401 push-device/unauthorized without a valid end-user token, and for service and master keys', async () => {
    const other = await t.createProject(['push']);
    const otherUser = await t.signUp(other.id);
    for (const token of [
      undefined,
      'garbage',
      `${alice.accessToken}x`,
      project.serviceKey,
      project.masterKey,
      otherUser.accessToken,
      'sk_forged',
    ]) {
      const response = await register(project.id, token, { platform: 'ios', token: 'never-stored' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.any(String), code: 'push-device/unauthorized' });
    }
    expect(await devices(project.id, 'never-stored')).toEqual([]);
  });

  it.each([
    [{ platform: 'windows', token: 'x' }],
    [{ platform: 'IOS', token: 'x' }],
    [{ token: 'x' }],
    [{ platform: 'ios' }],
    [{ platform: 'android', token: '' }],
    [{ platform: 'android', token: 42 }],
    [{ platform: 'web' }],
    [{ platform: 'web', token: 'x' }],
    [{ platform: 'web', subscription: { keys: { p256dh: 'a', auth: 'b' } } }],
    [{ platform: 'web', subscription: { endpoint: 'https://push.example.com/x' } }],
    [{ platform: 'web', subscription: { endpoint: 'not a url', keys: { p256dh: 'a', auth: 'b' } } }],
    [{ platform: 'web', subscription: { endpoint: 'http://push.example.com/x', keys: { p256dh: 'a', auth: 'b' } } }],
    [{ platform: 'ios', token: 'x', userId: 'someone-else' }],
    [[]],
  ])('400 push-device/invalid-body for %j', async (body) => {
    const response = await register(project.id, alice.accessToken, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: expect.any(String), code: 'push-device/invalid-body' });
  });

  it('400 push-device/invalid-body for a body that is not JSON-typed', async () => {
    const response = await t.request('POST', `${API(project.id)}/push-notifications/devices`, {
      token: alice.accessToken,
      body: 'platform=ios&token=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response).toMatchObject({ status: 400, body: { code: 'push-device/invalid-body' } });
  });

  it('403 database/tables-not-available without the push bundle, until the operator enables it', async () => {
    const bare = await t.createProject([]);
    const user = await t.signUp(bare.id);
    const refused = await register(bare.id, user.accessToken, { platform: 'ios', token: 'bundle-token' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'database/tables-not-available' });
    const key = await t.request('GET', `${API(bare.id)}/push-notifications/vapid-public-key`);
    expect(key).toMatchObject({ status: 403, body: { code: 'database/tables-not-available' } });
    await t.admin('PATCH', `/projects/${bare.id}`, { bundles: ['push'] });
    expect((await register(bare.id, user.accessToken, { platform: 'ios', token: 'bundle-token' })).status).toBe(200);
  });

  it('keeps devices of different projects apart', async () => {
    const other = await t.createProject(['push']);
    const otherUser = await t.signUp(other.id);
    await register(project.id, alice.accessToken, { platform: 'ios', token: 'two-projects' });
    await register(other.id, otherUser.accessToken, { platform: 'ios', token: 'two-projects' });
    expect(await devices(project.id, 'two-projects')).toEqual([expect.objectContaining({ user_id: alice.id })]);
    expect(await devices(other.id, 'two-projects')).toEqual([expect.objectContaining({ user_id: otherUser.id })]);
  });

  it('DELETE deregisters the caller device; 404 push-device/not-found otherwise', async () => {
    const body = { platform: 'android', token: 'to-delete' };
    await register(project.id, alice.accessToken, body);
    const byOther = await t.request('DELETE', `${API(project.id)}/push-notifications/devices`, {
      token: bob.accessToken,
      body,
    });
    expect(byOther).toMatchObject({ status: 404, body: { code: 'push-device/not-found' } });
    const removed = await t.request('DELETE', `${API(project.id)}/push-notifications/devices`, {
      token: alice.accessToken,
      body,
    });
    expect(removed.status).toBe(200);
    expect(await devices(project.id, 'to-delete')).toEqual([]);
    const again = await t.request('DELETE', `${API(project.id)}/push-notifications/devices`, {
      token: alice.accessToken,
      body,
    });
    expect(again).toMatchObject({ status: 404, body: { code: 'push-device/not-found' } });
    const withKey = await t.request('DELETE', `${API(project.id)}/push-notifications/devices`, {
      token: project.serviceKey,
      body,
    });
    expect(withKey).toMatchObject({ status: 401, body: { code: 'push-device/unauthorized' } });
  });

  it('serves one stable VAPID public key', async () => {
    const first = await t.request('GET', `${API(project.id)}/push-notifications/vapid-public-key`);
    expect(first.status).toBe(200);
    expect(first.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const second = await t.request('GET', `${API(project.id)}/push-notifications/vapid-public-key`);
    expect(second.body.publicKey).toBe(first.body.publicKey);
  });
});
