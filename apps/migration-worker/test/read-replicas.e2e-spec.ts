import { acquireTestReplica, createTestRedisPrefix, TestApp, TestReplica, waitFor } from '@acme/platform-testing';
import { makeDocuments, operator, startMigrationApp } from './support';

/**
 * Organization stats on a real streaming replica (DATABASE_READ_URLS): documents imported while the replica's
 * replay is paused are not counted yet; the counts catch up when replay resumes.
 */
describe('migration stats on a read replica', () => {
  let replica: TestReplica;
  let app: TestApp;

  beforeAll(async () => {
    replica = await acquireTestReplica('migration_replica');
    app = await startMigrationApp(
      { DATABASE_READ_URLS: replica.replicaUrl, DATABASE_MAX_REPLICA_LAG_MS: '600000' },
      { database: replica.database, redisPrefix: createTestRedisPrefix('migration-replica') },
    );
  }, 120_000);

  afterAll(async () => {
    await replica?.onReplica('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await app?.close();
    await replica?.release();
  });

  it('counts from the replica', async () => {
    const ops = operator(app);
    const { workspaceId } = await ops.workspace();
    await ops.organization(workspaceId, 'org-a');
    expect((await ops.importDocuments(workspaceId, 'org-a', makeDocuments('a', 3, 2))).status).toBe(201);
    await replica.caughtUp();
    await waitFor(async () => (await ops.stats(workspaceId, 'org-a')).documents === 3 || undefined, {
      what: 'the replica to count the first import',
    });

    await replica.onReplica('SELECT pg_wal_replay_pause()');
    try {
      expect((await ops.importDocuments(workspaceId, 'org-a', makeDocuments('b', 4, 2))).status).toBe(201);
      expect(await ops.stats(workspaceId, 'org-a')).toEqual({ documents: 3, records: 6 });
    } finally {
      await replica.onReplica('SELECT pg_wal_replay_resume()');
    }
    await replica.caughtUp();
    expect(await ops.stats(workspaceId, 'org-a')).toEqual({ documents: 7, records: 14 });
  });
});
