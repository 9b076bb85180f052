import { randomUUID } from 'node:crypto';
import { acquireTestReplica, TestReplica, waitFor } from '@acme/platform-testing';
import { ManagementApp, startManagement } from './support';

const MAX_LAG_MS = 1500;

/**
 * The policy list on a real streaming replica (DATABASE_READ_URLS): served by the replica while it keeps up
 * (a row written during a replay pause is not there yet), by the primary once the replica lags past
 * DATABASE_MAX_REPLICA_LAG_MS; a get after a create always reads the primary; a replica stopped under load
 * costs no request.
 */
describe('policy reads on a read replica', () => {
  let replica: TestReplica;
  let app: ManagementApp;

  beforeAll(async () => {
    replica = await acquireTestReplica('mgmt_replica');
    app = await startManagement({
      env: { DATABASE_READ_URLS: replica.replicaUrl, DATABASE_MAX_REPLICA_LAG_MS: String(MAX_LAG_MS) },
      shareWith: { database: replica.database, redisPrefix: `replica-${randomUUID()}` },
    });
  }, 120_000);

  afterAll(async () => {
    await replica?.onReplica('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await app?.close();
    await replica?.release();
  });

  const create = async (selector: string) => {
    const response = await app.api('/rate-limit-policies', {
      method: 'POST',
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: `client_id:${selector}`,
        configuration: { action: 'block', limit: 10 },
      },
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const listedIds = async () => {
    const response = await app.api('/rate-limit-policies?take=100');
    expect(response.status).toBe(200);
    return ((await response.json()) as { rate_limit_policies: { id: string }[] }).rate_limit_policies.map(
      (policy) => policy.id,
    );
  };

  it('lists from the replica while it keeps up, from the primary once it lags past the limit; get-after-create reads the primary', async () => {
    const warm = await create('warm');
    await replica.caughtUp();
    await waitFor(async () => (await listedIds()).includes(warm) || undefined, { what: 'the replica to be in use' });

    await replica.onReplica('SELECT pg_wal_replay_pause()');
    try {
      const fresh = await create('fresh');
      expect((await app.api(`/rate-limit-policies/${fresh}`)).status).toBe(200);
      // Written on the primary, not replayed yet: a list without it was served by the replica.
      expect(await listedIds()).not.toContain(fresh);
      const movedAfter = performance.now();
      await waitFor(async () => (await listedIds()).includes(fresh) || undefined, {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'reads to move to the primary',
      });
      expect(performance.now() - movedAfter).toBeLessThan(MAX_LAG_MS + 2500);
    } finally {
      await replica.onReplica('SELECT pg_wal_replay_resume()');
    }
    await replica.caughtUp();
  });

  it('answers every list request while the replica is stopped under load', async () => {
    let running = true;
    const statuses: number[] = [];
    const loops = Array.from({ length: 6 }, async () => {
      while (running) statuses.push((await app.api('/rate-limit-policies?take=10')).status);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    replica.replica.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await Promise.all(loops);
    replica.replica.start();
    expect(statuses.length).toBeGreaterThan(50);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
