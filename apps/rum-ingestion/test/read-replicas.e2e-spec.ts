import { acquireTestReplica, createTestRedisPrefix, TestApp, TestReplica, waitFor } from '@acme/platform-testing';
import { createTenant, expectSuccess, rum, startRum, Tenant, typeErrorRule } from './support/rum-client';

jest.setTimeout(120_000);

/**
 * Rule history on a real streaming replica (DATABASE_READ_URLS): a change made while the replica's replay is
 * paused is in the rule list (primary) but not yet in the history list, which the replica answers.
 */
describe('rule history on a read replica', () => {
  let replica: TestReplica;
  let app: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    replica = await acquireTestReplica('rum_replica');
    app = await startRum(
      {
        DATABASE_READ_URLS: replica.replicaUrl,
        DATABASE_MAX_REPLICA_LAG_MS: '600000',
        RUM_CREATE_LIMIT_PER_SECOND: '1000',
        RUM_CREATE_LIMIT_PER_MINUTE: '10000',
      },
      { database: replica.database, redisPrefix: createTestRedisPrefix('rum-replica') },
    );
    tenant = await createTenant(app);
  });

  afterAll(async () => {
    await replica?.onReplica('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await app?.close();
    await replica?.release();
  });

  const call = (route: string, body: Record<string, unknown> = {}) =>
    rum(app, route, tenant.appKey, { application_id: tenant.applicationId, ...body });
  const versions = async () =>
    (expectSuccess(await call('rules/history/list')).items as { version: number }[]).map((item) => item.version);

  it('lists history from the replica and rules from the primary', async () => {
    expectSuccess(await call('rules/create', typeErrorRule('first')));
    await replica.caughtUp();
    await waitFor(async () => (await versions()).includes(1) || undefined, { what: 'version 1 on the replica' });

    await replica.onReplica('SELECT pg_wal_replay_pause()');
    try {
      expectSuccess(await call('rules/create', typeErrorRule('second')));
      expect(expectSuccess(await call('rules/list')).total).toBe(2);
      expect(await versions()).toEqual([1]);
    } finally {
      await replica.onReplica('SELECT pg_wal_replay_resume()');
    }
    await replica.caughtUp();
    expect(await versions()).toEqual([2, 1]);
  });
});
