import { TestApp, waitFor } from '@acme/platform-testing';
import { IngestService, RuleSetCache } from '@acme/rum';
import {
  clientToken,
  countRows,
  createTenant,
  expectFailure,
  expectSuccess,
  ingest,
  INVALID,
  rum,
  startRum,
  Tenant,
  UNAUTHORIZED,
} from './support/rum-client';

// Real Postgres and Redis on a shared, loaded machine: allow far more than the 5 s default.
jest.setTimeout(120_000);

describe('ingest path', () => {
  let first: TestApp;
  let second: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    first = await startRum();
    second = await startRum({}, first);
    tenant = await createTenant(first, 'ingesting');
    token = await clientToken(first, tenant.applicationId);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const createRule = async (rule_name: string, filters: unknown) =>
    expectSuccess(
      await rum(first, 'rules/create', tenant.appKey, { application_id: tenant.applicationId, rule_name, filters }),
    ).rule_id as string;
  const info = async (rule_id: string) =>
    expectSuccess(await rum(first, 'rules/info', tenant.appKey, { application_id: tenant.applicationId, rule_id }));
  const event = (error_type: string, extra: Record<string, unknown> = {}) => ({
    error: { error_type, message: `${error_type} happened` },
    env: 'prod',
    ...extra,
  });

  it('stores every event while the application has no rule', async () => {
    const started = new Date(Date.now() - 1000);
    const data = expectSuccess(
      await ingest(first, token, {
        events: [event('TypeError', { marker: 'no-rules' }), event('RangeError', { marker: 'no-rules' })],
      }),
    );
    expect(data).toEqual({ accepted: 2, dropped: 0 });
    const stored = await first.app
      .get(IngestService)
      .storedEvents(tenant.applicationId, started, new Date(Date.now() + 1000));
    expect(stored.filter((e) => e['marker'] === 'no-rules')).toHaveLength(2);
  });

  it('drops exactly the events that match an enabled rule, counts them per rule, and stores the rest', async () => {
    const typeErrors = await createRule('type errors', [
      [{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }],
    ]);
    const stagingTimeouts = await createRule('staging timeouts', [
      [
        { key: 'env', oper: 'IN', vals: ['staging'] },
        { key: 'error.message', oper: 'CONTAINS', vals: ['timeout'] },
      ],
      [{ key: 'view.url', oper: 'CONTAINS', vals: ['/healthz'] }],
    ]);
    const events = [
      event('TypeError', { n: 1 }),
      event('RangeError', { n: 2 }),
      { error: { error_type: 'Error', message: 'gateway timeout' }, env: 'staging', n: 3 },
      { error: { error_type: 'Error', message: 'gateway timeout' }, env: 'prod', n: 4 },
      { error: { error_type: 'Error' }, view: { url: 'https://app/healthz?x=1' }, n: 5 },
      event('TypeError', { n: 6, date: 1_700_000_000_000 }),
      { n: 7, date: 1_700_000_000_000 },
    ];
    const data = expectSuccess(await ingest(second, token, { events }));
    expect(data).toEqual({ accepted: 3, dropped: 4 });
    expect((await info(typeErrors)).discarded_count).toBe(2);
    expect((await info(stagingTimeouts)).discarded_count).toBe(2);

    const stored = await first.app
      .get(IngestService)
      .storedEvents(tenant.applicationId, new Date(0), new Date(Date.now() + 60_000), 100);
    expect(
      stored
        .map((e) => e['n'])
        .filter(Boolean)
        .sort(),
    ).toEqual([2, 4, 7]);
    const byTime = await first.app
      .get(IngestService)
      .storedEvents(tenant.applicationId, new Date(1_699_999_999_000), new Date(1_700_000_001_000));
    expect(byTime.map((e) => e['n'])).toEqual([7]);
  });

  it('stops dropping when a rule is disabled and resumes when enabled, on both instances', async () => {
    const ruleId = await createRule('cancelled', [[{ key: 'error.error_type', oper: 'IN', vals: ['CancelledError'] }]]);
    expect(expectSuccess(await ingest(second, token, { events: [event('CancelledError')] }))).toEqual({
      accepted: 0,
      dropped: 1,
    });
    expectSuccess(
      await rum(first, 'rules/disable', tenant.appKey, { application_id: tenant.applicationId, rule_id: ruleId }),
    );
    expect(expectSuccess(await ingest(second, token, { events: [event('CancelledError')] }))).toEqual({
      accepted: 1,
      dropped: 0,
    });
    expectSuccess(
      await rum(first, 'rules/enable', tenant.appKey, { application_id: tenant.applicationId, rule_id: ruleId }),
    );
    expect(expectSuccess(await ingest(first, token, { events: [event('CancelledError')] }))).toEqual({
      accepted: 0,
      dropped: 1,
    });
    expect((await info(ruleId)).discarded_count).toBe(2);
  });

  it('recompiles on every instance within one second of a change, once per version', async () => {
    const cacheA = first.app.get(RuleSetCache);
    const cacheB = second.app.get(RuleSetCache);
    await ingest(second, token, { events: [event('Warm')] });
    const compilesBefore = cacheB.compileCount;
    await createRule('reload', [[{ key: 'error.error_type', oper: 'IN', vals: ['ReloadError'] }]]);
    const version = expectSuccess(
      await rum(first, 'rules/history/list', tenant.appKey, { application_id: tenant.applicationId, limit: 1 }),
    ).items[0].version;
    const changedAt = Date.now();
    await waitFor(
      () =>
        cacheB.cachedVersion(tenant.applicationId) === version &&
        cacheA.cachedVersion(tenant.applicationId) === version,
      {
        timeoutMs: 5000,
        intervalMs: 10,
        what: 'both instances on the new version',
      },
    );
    expect(Date.now() - changedAt).toBeLessThan(1000);
    expect(cacheB.compileCount).toBe(compilesBefore + 1);
    for (let i = 0; i < 3; i++)
      expect(expectSuccess(await ingest(second, token, { events: [event('ReloadError')] }))).toEqual({
        accepted: 0,
        dropped: 1,
      });
    expect(cacheB.compileCount).toBe(compilesBefore + 1);
  });

  it('answers a missing or unknown client token, or an app key in its place, with Unauthorized 401', async () => {
    expectFailure(await ingest(first, undefined, { events: [event('X')] }), 401, ...UNAUTHORIZED);
    expectFailure(await ingest(first, 'rum_ct_unknown', { events: [event('X')] }), 401, ...UNAUTHORIZED);
    expectFailure(await ingest(first, tenant.appKey, { events: [event('X')] }), 401, ...UNAUTHORIZED);
  });

  it.each([
    ['no events field', {}],
    ['an empty batch', { events: [] }],
    ['1,001 events', { events: Array.from({ length: 1001 }, () => ({ error: {} })) }],
    ['events that are not objects', { events: [1, 'x', null] }],
    ['an array event', { events: [[{ error: {} }]] }],
    ['events not an array', { events: { error: {} } }],
    ['an unknown top-level field', { events: [{}], extra: true }],
  ])('refuses %s with InvalidParameter 400 and stores nothing', async (_, body) => {
    const before = await countRows(first, 'error_events');
    expectFailure(await ingest(first, token, body), 400, ...INVALID);
    expect(await countRows(first, 'error_events')).toBe(before);
  });

  it('accepts a full batch of 1,000 events', async () => {
    const events = Array.from({ length: 1000 }, (_, i) =>
      event(i % 2 === 0 ? 'TypeError' : 'OtherError', { payload: 'x'.repeat(200) }),
    );
    expect(expectSuccess(await ingest(first, token, { events }))).toEqual({ accepted: 500, dropped: 500 });
  });
});
