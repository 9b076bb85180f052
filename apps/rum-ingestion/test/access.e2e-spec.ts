import { TestApp, waitFor } from '@acme/platform-testing';
import {
  admin,
  createAccount,
  createTenant,
  expectFailure,
  expectSuccess,
  INVALID,
  rum,
  startRum,
  Tenant,
  typeErrorRule,
  UNAUTHORIZED,
} from './support/rum-client';
import { RUM_SCHEMA } from '@acme/rum-schema';

// Real Postgres and Redis on a shared, loaded machine: allow far more than the 5 s default.
jest.setTimeout(120_000);

describe('access and audit', () => {
  let app: TestApp;
  let owner: Tenant;
  let reader: { accountId: number; appKey: string };
  let writer: { accountId: number; appKey: string };
  let stranger: Tenant;

  beforeAll(async () => {
    app = await startRum();
    owner = await createTenant(app, 'owner');
    stranger = await createTenant(app, 'stranger');
    reader = await createAccount(app, 'reader');
    writer = await createAccount(app, 'writer');
    expect(
      (await admin(app, 'PUT', `/applications/${owner.applicationId}/access/${reader.accountId}`, { access: 'read' }))
        .status,
    ).toBe(200);
    expect(
      (await admin(app, 'PUT', `/applications/${owner.applicationId}/access/${writer.accountId}`, { access: 'write' }))
        .status,
    ).toBe(200);
  });
  afterAll(() => app?.close());

  const create = (key: string | undefined, name: string, applicationId = owner.applicationId) =>
    rum(app, 'rules/create', key, { application_id: applicationId, ...typeErrorRule(name) });
  const history = (key: string | undefined, applicationId = owner.applicationId) =>
    rum(app, 'rules/history/list', key, { application_id: applicationId });

  it('answers a missing or unknown app_key with Unauthorized 401', async () => {
    expectFailure(await create(undefined, 'a'), 401, ...UNAUTHORIZED);
    expectFailure(await create('rum_ak_not-a-key', 'a'), 401, ...UNAUTHORIZED);
    expectFailure(await history(undefined), 401, ...UNAUTHORIZED);
    expectFailure(await history(''), 401, ...UNAUTHORIZED);
  });

  it('answers another account’s key with Unauthorized 403 on create and history', async () => {
    expectFailure(await create(stranger.appKey, 'a'), 403, ...UNAUTHORIZED);
    expectFailure(await history(stranger.appKey), 403, ...UNAUTHORIZED);
    expectFailure(await create(owner.appKey, 'a', stranger.applicationId), 403, ...UNAUTHORIZED);
  });

  it('treats an unknown application like one without access (403), and checks access before validation of the rest', async () => {
    expectFailure(await create(owner.appKey, 'a', 'ffffffffffffffffffffffff'), 403, ...UNAUTHORIZED);
    expectFailure(
      await rum(app, 'rules/create', stranger.appKey, { application_id: owner.applicationId, rule_name: '' }),
      403,
      ...UNAUTHORIZED,
    );
  });

  it('lets a read-only key read but not write', async () => {
    expectSuccess(await history(reader.appKey));
    expectSuccess(await rum(app, 'rules/list', reader.appKey, { application_id: owner.applicationId }));
    expectFailure(await create(reader.appKey, 'by-reader'), 403, ...UNAUTHORIZED);
    const { rule_id } = expectSuccess(await create(owner.appKey, 'owned'));
    for (const route of ['rules/update', 'rules/delete', 'rules/enable', 'rules/disable']) {
      expectFailure(
        await rum(app, route, reader.appKey, { application_id: owner.applicationId, rule_id }),
        403,
        ...UNAUTHORIZED,
      );
    }
    expectSuccess(await rum(app, 'rules/info', reader.appKey, { application_id: owner.applicationId, rule_id }));
  });

  it('lets a write grant and the owner do everything, and records who changed what', async () => {
    expectSuccess(await create(writer.appKey, 'by-writer'));
    const latest = expectSuccess(await history(writer.appKey)).items[0];
    expect(latest).toMatchObject({ updated_by: writer.accountId, updated_by_name: 'writer' });
    expectSuccess(await create(owner.appKey, 'by-owner'));
  });

  it('follows access changes: downgrading write to read stops writes', async () => {
    const account = await createAccount(app, 'downgraded');
    await admin(app, 'PUT', `/applications/${owner.applicationId}/access/${account.accountId}`, { access: 'write' });
    expectSuccess(await create(account.appKey, 'before-downgrade'));
    await admin(app, 'PUT', `/applications/${owner.applicationId}/access/${account.accountId}`, { access: 'read' });
    expectFailure(await create(account.appKey, 'after-downgrade'), 403, ...UNAUTHORIZED);
  });

  it('writes every call of an account to its audit log with secrets redacted', async () => {
    const account = await createTenant(app, 'audited');
    const secret = 'sk_live_9fQ2xTz8LmNc4Vb7Kp3Rw6Yh1Jd5Gs0A';
    expectSuccess(
      await rum(app, 'rules/create', account.appKey, {
        application_id: account.applicationId,
        ...typeErrorRule('audited'),
        description: secret,
      }),
    );
    expectFailure(
      await rum(app, 'rules/create', account.appKey, { application_id: account.applicationId, rule_name: '' }),
      400,
      ...INVALID,
    );
    expectFailure(
      await rum(app, 'rules/create', account.appKey, { application_id: owner.applicationId, ...typeErrorRule('x') }),
      403,
      ...UNAUTHORIZED,
    );
    const last = await history(account.appKey, account.applicationId);

    const log = await waitFor(
      async () => {
        const reply = await admin(app, 'GET', `/accounts/${account.accountId}/audit-log`);
        return reply.body.items.length >= 4 ? reply.body : undefined;
      },
      { what: 'four audit entries' },
    );
    const items = log.items as Record<string, any>[];
    // Entries are written as responses finish, so only the set (not the order of near-simultaneous writes) is pinned.
    expect(items.map((item) => [item.route, item.status, item.result])).toEqual(
      expect.arrayContaining([
        ['/rum/error-ingestion/rules/history/list', 200, 'Success'],
        ['/rum/error-ingestion/rules/create', 403, 'Unauthorized'],
        ['/rum/error-ingestion/rules/create', 400, 'InvalidParameter'],
        ['/rum/error-ingestion/rules/create', 200, 'Success'],
      ]),
    );
    expect(items.map((item) => item.id)).toEqual([...items.map((item) => item.id)].sort((a, b) => b - a));
    const historyEntry = items.find((item) => item.route.endsWith('history/list'))!;
    expect(historyEntry).toMatchObject({
      account_id: account.accountId,
      method: 'POST',
      application_id: account.applicationId,
      request_id: last.body.request_id,
    });
    expect(items.find((item) => item.status === 403)!.application_id).toBe(owner.applicationId);
    const created = items.find((item) => item.status === 200 && item.route.endsWith('create'))!;
    expect(created.request.body.filters).toEqual(typeErrorRule().filters);
    expect(created.request.query.app_key).toBe('[REDACTED]');
    expect(created.request.body.description).toBe('[REDACTED]');
    const text = JSON.stringify(log);
    expect(text).not.toContain(account.appKey);
    expect(text).not.toContain(secret);

    const page = await admin(app, 'GET', `/accounts/${account.accountId}/audit-log?limit=2`);
    expect(page.body.items).toHaveLength(2);
    const rest = await admin(
      app,
      'GET',
      `/accounts/${account.accountId}/audit-log?limit=2&before=${page.body.next_before}`,
    );
    expect(rest.body.items.map((item: { id: number }) => item.id)).toEqual(items.slice(2, 4).map((item) => item.id));
    expect(
      (await admin(app, 'GET', `/accounts/${stranger.accountId}/audit-log`)).body.items.every(
        (item: { account_id: number }) => item.account_id === stranger.accountId,
      ),
    ).toBe(true);
  });

  it('guards the operator API with ADMIN_TOKEN and validates its input', async () => {
    const anonymous = await fetch(`${app.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('service-request-id')).toBeTruthy();
    expectFailure(await admin(app, 'POST', '/accounts', { name: '' }), 400, ...INVALID);
    expectFailure(await admin(app, 'POST', '/applications', { name: 'x', owner_account_id: 999999 }), 400, ...INVALID);
    expectFailure(await admin(app, 'POST', '/applications', { name: 'x', owner_account_id: '1' }), 400, ...INVALID);
    expectFailure(
      await admin(app, 'PUT', `/applications/${owner.applicationId}/access/${reader.accountId}`, { access: 'admin' }),
      400,
      ...INVALID,
    );
    expectFailure(
      await admin(app, 'PUT', `/applications/nosuchapp/access/${reader.accountId}`, { access: 'read' }),
      400,
      ...INVALID,
    );
    expectFailure(await admin(app, 'POST', '/applications/nosuchapp/client-tokens'), 400, ...INVALID);
    expectFailure(await admin(app, 'GET', '/accounts/abc/audit-log'), 400, ...INVALID);
    expectFailure(await admin(app, 'GET', '/accounts/999999/audit-log'), 400, ...INVALID);
  });

  it('stores app keys and client tokens only as digests', async () => {
    const token = (await admin(app, 'POST', `/applications/${owner.applicationId}/client-tokens`)).body
      .client_token as string;
    const { Client } = await import('pg');
    const client = new Client({ connectionString: app.database.url });
    await client.connect();
    try {
      const keys = await client.query(
        `SELECT "key_digest" AS d FROM "${RUM_SCHEMA}"."app_keys" UNION ALL SELECT "token_digest" FROM "${RUM_SCHEMA}"."client_tokens"`,
      );
      const stored = JSON.stringify(keys.rows);
      expect(stored).not.toContain(owner.appKey);
      expect(stored).not.toContain(token);
      expect(keys.rows.every((row: { d: string }) => /^[0-9a-f]{64}$/.test(row.d))).toBe(true);
    } finally {
      await client.end();
    }
  });
});
