import { TestApp } from '@acme/platform-testing';
import { RuleSetStore } from '@acme/rum';
import {
  createTenant,
  expectFailure,
  expectSuccess,
  INTERNAL,
  INVALID,
  rum,
  startRum,
  Tenant,
  typeErrorRule,
} from './support/rum-client';

// Real Postgres and Redis on a shared, loaded machine: allow far more than the 5 s default.
jest.setTimeout(120_000);

describe('rules API', () => {
  let app: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await startRum({ RUM_CREATE_LIMIT_PER_SECOND: '1000', RUM_CREATE_LIMIT_PER_MINUTE: '10000' });
    tenant = await createTenant(app);
  });
  afterAll(() => app?.close());

  const call = (route: string, body: Record<string, unknown>) =>
    rum(app, route, tenant.appKey, { application_id: tenant.applicationId, ...body });

  it('creates a rule, answers {rule_id, rule_name} in the envelope and writes snapshot 1', async () => {
    const created = expectSuccess(await call('rules/create', typeErrorRule('first')));
    expect(created).toEqual({ rule_id: expect.stringMatching(/^[0-9a-f]{24}$/), rule_name: 'first' });
    const history = expectSuccess(await call('rules/history/list', {}));
    expect(history.total).toBeGreaterThanOrEqual(1);
    const snapshot = history.items.find((item: { version: number }) => item.version === 1);
    expect(snapshot).toEqual({
      version: 1,
      rules: [
        {
          rule_id: created.rule_id,
          rule_name: 'first',
          description: 'noise from old browsers',
          filters: typeErrorRule().filters,
          status: 'enabled',
          created_at: expect.any(Number),
          updated_at: expect.any(Number),
        },
      ],
      updated_by: tenant.accountId,
      updated_by_name: 'acme',
      updated_at: expect.any(Number),
    });
    // Timestamps are Unix seconds (not milliseconds), as Flashduty's.
    for (const stamp of [snapshot.updated_at, snapshot.rules[0].created_at, snapshot.rules[0].updated_at]) {
      expect(Number.isInteger(stamp)).toBe(true);
      expect(Math.abs(stamp - Date.now() / 1000)).toBeLessThan(60);
    }
  });

  it('runs info, list, update, disable, enable and delete, each change a new snapshot with the whole rule set', async () => {
    const { rule_id } = expectSuccess(await call('rules/create', typeErrorRule('lifecycle')));
    const before = expectSuccess(await call('rules/history/list', { limit: 1 })).items[0].version;

    const info = expectSuccess(await call('rules/info', { rule_id }));
    expect(info).toMatchObject({ rule_id, rule_name: 'lifecycle', status: 'enabled', discarded_count: 0 });

    const updated = expectSuccess(
      await call('rules/update', {
        rule_id,
        rule_name: 'renamed',
        filters: [[{ key: 'env', oper: 'NOT IN', vals: ['prod'] }]],
      }),
    );
    expect(updated).toMatchObject({
      rule_id,
      rule_name: 'renamed',
      description: 'noise from old browsers',
      filters: [[{ key: 'env', oper: 'NOT IN', vals: ['prod'] }]],
    });
    expect(expectSuccess(await call('rules/disable', { rule_id })).status).toBe('disabled');
    expect(expectSuccess(await call('rules/enable', { rule_id })).status).toBe('enabled');

    const list = expectSuccess(await call('rules/list', {}));
    expect(list.items.map((rule: { rule_name: string }) => rule.rule_name)).toEqual(
      expect.arrayContaining(['renamed']),
    );
    expect(list.items[0]).toHaveProperty('discarded_count');

    expect(expectSuccess(await call('rules/delete', { rule_id }))).toEqual({ rule_id });
    expectFailure(await call('rules/info', { rule_id }), 400, ...INVALID);

    const history = expectSuccess(await call('rules/history/list', { limit: 4 }));
    expect(history.items.map((item: { version: number }) => item.version)).toEqual([
      before + 4,
      before + 3,
      before + 2,
      before + 1,
    ]);
    const [deleted, enabled, disabled, renamed] = history.items;
    expect(deleted.rules.some((rule: { rule_id: string }) => rule.rule_id === rule_id)).toBe(false);
    expect(enabled.rules.find((rule: { rule_id: string }) => rule.rule_id === rule_id).status).toBe('enabled');
    expect(disabled.rules.find((rule: { rule_id: string }) => rule.rule_id === rule_id).status).toBe('disabled');
    expect(renamed.rules.find((rule: { rule_id: string }) => rule.rule_id === rule_id).rule_name).toBe('renamed');
  });

  it('refuses a duplicate rule_name in the same application, and unknown rule ids, as InvalidParameter', async () => {
    expectSuccess(await call('rules/create', typeErrorRule('unique')));
    expectFailure(await call('rules/create', typeErrorRule('unique')), 400, ...INVALID);
    const { rule_id } = expectSuccess(await call('rules/create', typeErrorRule('other')));
    expectFailure(await call('rules/update', { rule_id, rule_name: 'unique' }), 400, ...INVALID);
    for (const route of ['rules/update', 'rules/delete', 'rules/enable', 'rules/disable', 'rules/info']) {
      expectFailure(await call(route, { rule_id: 'nosuchrule' }), 400, ...INVALID);
    }
  });

  it('gives concurrent creates distinct consecutive versions and loses none', async () => {
    const fresh = await createTenant(app, 'concurrent');
    const replies = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        rum(app, 'rules/create', fresh.appKey, { application_id: fresh.applicationId, ...typeErrorRule(`r${i}`) }),
      ),
    );
    replies.forEach(expectSuccess);
    const history = expectSuccess(
      await rum(app, 'rules/history/list', fresh.appKey, {
        application_id: fresh.applicationId,
        limit: 100,
        asc: true,
      }),
    );
    expect(history.total).toBe(25);
    expect(history.items.map((item: { version: number }) => item.version)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(history.items.map((item: { rules: unknown[] }) => item.rules.length)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it('pages history 20 snapshots at a time when no limit is given', async () => {
    const fresh = await createTenant(app, 'default-limit');
    for (let i = 0; i < 21; i++)
      expectSuccess(
        await rum(app, 'rules/create', fresh.appKey, {
          application_id: fresh.applicationId,
          ...typeErrorRule(`d${i}`),
        }),
      );
    const page = expectSuccess(
      await rum(app, 'rules/history/list', fresh.appKey, { application_id: fresh.applicationId }),
    );
    expect({
      items: page.items.length,
      total: page.total,
      next: page.has_next_page,
      first: page.items[0].version,
    }).toEqual({ items: 20, total: 21, next: true, first: 21 });
  });

  it('orders and pages history: defaults version desc, p/limit, orderby updated_at, limit capped at 100', async () => {
    const fresh = await createTenant(app, 'paging');
    const history = (body: Record<string, unknown>) =>
      rum(app, 'rules/history/list', fresh.appKey, { application_id: fresh.applicationId, ...body });
    for (let i = 0; i < 7; i++)
      expectSuccess(
        await rum(app, 'rules/create', fresh.appKey, {
          application_id: fresh.applicationId,
          ...typeErrorRule(`p${i}`),
        }),
      );
    const versions = (data: { items: { version: number }[] }) => data.items.map((item) => item.version);

    const first = expectSuccess(await history({}));
    expect(first).toMatchObject({ total: 7, has_next_page: false });
    expect(versions(first)).toEqual([7, 6, 5, 4, 3, 2, 1]);

    expect(expectSuccess(await history({ p: 0, limit: 3 }))).toMatchObject({ total: 7, has_next_page: true });
    expect(versions(expectSuccess(await history({ p: 1, limit: 3 })))).toEqual([4, 3, 2]);
    const last = expectSuccess(await history({ p: 2, limit: 3 }));
    expect(versions(last)).toEqual([1]);
    expect(last.has_next_page).toBe(false);
    expect(versions(expectSuccess(await history({ p: 5, limit: 3 })))).toEqual([]);
    expect(versions(expectSuccess(await history({ p: 0, limit: 3, asc: true })))).toEqual([1, 2, 3]);
    expect(versions(expectSuccess(await history({ orderby: 'updated_at', asc: true, limit: 2 })))).toEqual([1, 2]);
    expect(versions(expectSuccess(await history({ orderby: 'updated_at', limit: 2 })))).toEqual([7, 6]);

    const capped = expectSuccess(await history({ limit: 1000 }));
    expect(versions(capped)).toHaveLength(7);
    // 100 rules (the most an application may hold), then 5 more versions by re-enabling one: 105 snapshots.
    for (let i = 7; i < 100; i++)
      expectSuccess(
        await rum(app, 'rules/create', fresh.appKey, {
          application_id: fresh.applicationId,
          ...typeErrorRule(`p${i}`),
        }),
      );
    const [someRule] = expectSuccess(
      await rum(app, 'rules/list', fresh.appKey, { application_id: fresh.applicationId, limit: 1 }),
    ).items;
    for (let i = 0; i < 5; i++)
      expectSuccess(
        await rum(app, 'rules/enable', fresh.appKey, {
          application_id: fresh.applicationId,
          rule_id: someRule.rule_id,
        }),
      );
    const cappedFull = expectSuccess(await history({ limit: 1000 }));
    expect(cappedFull.items).toHaveLength(100);
    expect(cappedFull).toMatchObject({ total: 105, has_next_page: true });
    const rules = expectSuccess(
      await rum(app, 'rules/list', fresh.appKey, { application_id: fresh.applicationId, limit: 1000, p: 0 }),
    );
    expect(rules).toMatchObject({ total: 100, has_next_page: false });
    expect(rules.items).toHaveLength(100);
  });

  it.each([
    ['p: -1', { p: -1 }],
    ['p not an integer', { p: 1.5 }],
    ['limit: 0', { limit: 0 }],
    ['limit as a string', { limit: '10' }],
    ['unknown orderby', { orderby: 'name' }],
    ['asc not a boolean', { asc: 'true' }],
    ['unknown field', { sort: 'x' }],
  ])('refuses history with %s', async (_, body) => {
    expectFailure(await call('rules/history/list', body), 400, ...INVALID);
  });

  it.each([
    ['missing application_id', { rule_name: 'x', filters: typeErrorRule().filters }, true],
    ['missing rule_name', { filters: typeErrorRule().filters }, false],
    ['empty rule_name', { rule_name: '', filters: typeErrorRule().filters }, false],
    ['129-character rule_name', { rule_name: 'x'.repeat(129), filters: typeErrorRule().filters }, false],
    [
      '513-character description',
      { rule_name: 'x', description: 'd'.repeat(513), filters: typeErrorRule().filters },
      false,
    ],
    ['missing filters', { rule_name: 'x' }, false],
    ['empty filters', { rule_name: 'x', filters: [] }, false],
    ['an empty group', { rule_name: 'x', filters: [[]] }, false],
    ['an unknown operator', { rule_name: 'x', filters: [[{ key: 'env', oper: 'LIKE', vals: ['a'] }]] }, false],
    ['vals of the wrong type', { rule_name: 'x', filters: [[{ key: 'env', oper: 'IN', vals: 'a' }]] }, false],
    ['rule_name of the wrong type', { rule_name: 5, filters: typeErrorRule().filters }, false],
  ])('refuses create with %s', async (_, body, withoutApplication) => {
    const reply = await rum(
      app,
      'rules/create',
      tenant.appKey,
      withoutApplication ? body : { application_id: tenant.applicationId, ...body },
    );
    expectFailure(reply, 400, ...INVALID);
  });

  it('accepts a 128-character rule_name and a 512-character description', async () => {
    expectSuccess(await call('rules/create', { ...typeErrorRule('n'.repeat(128)), description: 'd'.repeat(512) }));
  });

  it('answers malformed JSON with InvalidParameter 400', async () => {
    const response = await fetch(`${app.url}/rum/error-ingestion/rules/create?app_key=${tenant.appKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"application_id": ',
    });
    expectFailure({ status: response.status, body: await response.json(), headers: response.headers }, 400, ...INVALID);
  });
});

describe('rules API failing inside', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('answers an unexpected failure with InternalError 500 and no internal detail', async () => {
    app = await startRum({}, undefined, (builder) =>
      builder.overrideProvider(RuleSetStore).useFactory({
        factory: () => ({ history: () => Promise.reject(new Error('relation "secret_table" does not exist')) }),
      }),
    );
    const tenant = await createTenant(app);
    const reply = await rum(app, 'rules/history/list', tenant.appKey, { application_id: tenant.applicationId });
    expectFailure(reply, 500, ...INTERNAL);
    expect(JSON.stringify(reply.body)).not.toContain('secret_table');
  });
});
