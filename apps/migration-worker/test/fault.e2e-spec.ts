import { randomInt } from 'node:crypto';
import {
  createTestDatabase,
  createTestRedisPrefix,
  TestApp,
  TestDatabase,
  testRedisClusterNodes,
  waitFor,
} from '@acme/platform-testing';
import { freePort, PrivateRedis, PrivateRedisCluster, PrivateRedisTopology, WorkerProcess } from './fault-support';
import { client, Credentials, operator, startMigrationApp, withDb } from './support';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

const DOCUMENTS = 100_000;
const RECORDS_EACH = 5;

/**
 * Exactly-once under faults: worker processes are SIGKILLed at random moments and restarted, and Redis itself
 * restarts empty; the migration still ends completed with every document and record in the target once.
 */
describe('migration under faults (worker SIGKILL, Redis restart)', () => {
  let redis: PrivateRedisTopology;
  let database: TestDatabase;
  let app: TestApp;
  let acme: Credentials;
  let api: ReturnType<typeof client>;
  const workers: WorkerProcess[] = [];
  const redisPrefix = createTestRedisPrefix('migration-fault');

  const workerEnv = () => ({
    DATABASE_URL: database.url,
    ...redis.env,
    REDIS_PREFIX: redisPrefix,
    // Small batches keep the migration running long enough for six kills even on an idle machine.
    MIGRATION_BATCH_SIZE: '25',
    MIGRATION_LOCK_DURATION_MS: '2000',
    MIGRATION_STALLED_INTERVAL_MS: '1000',
    MIGRATION_MAX_STALLED_COUNT: '100',
    MIGRATION_RECONCILE_INTERVAL_MS: '1000',
    MIGRATION_JOB_BACKOFF_MS: '200',
  });

  beforeAll(async () => {
    // In the cluster pass the test's own Redis is a six-node cluster, restarted empty as a whole.
    redis = testRedisClusterNodes() ? new PrivateRedisCluster() : new PrivateRedis(await freePort());
    await redis.start();
    database = await createTestDatabase('migration-fault');
    // The API plans the slices: 2,500 documents each, so many jobs wait in Redis while two workers run.
    app = await startMigrationApp(
      { MIGRATION_ROLE: 'api', ...redis.env, MIGRATION_SLICE_SIZE: '2500' },
      { database, redisPrefix },
    );
    const ops = operator(app);
    acme = await ops.workspace();
    api = client(app, acme);
    for (const org of ['a', 'b', 'c', 'd']) await ops.organization(acme.workspaceId, org);
    await withDb(app, async (db) => {
      for (const org of ['a', 'c']) {
        const orgKey = (
          await db.query(`SELECT "key" FROM "${MIGRATION_SCHEMA}"."organizations" WHERE "id" = $1`, [org])
        ).rows[0].key;
        await db.query(
          `INSERT INTO "${MIGRATION_SCHEMA}"."documents" ("organization_key", "id", "title", "content")
           SELECT $1, $2 || '-' || g, 'title ' || g, 'content ' || g FROM generate_series(1, $3::int) g`,
          [orgKey, org, DOCUMENTS],
        );
        await db.query(
          `INSERT INTO "${MIGRATION_SCHEMA}"."records" ("document_key", "id", "kind", "body")
           SELECT d."key", 'r' || r, CASE WHEN r % 2 = 0 THEN 'comment' ELSE 'annotation' END, jsonb_build_object('n', r)
           FROM "${MIGRATION_SCHEMA}"."documents" d CROSS JOIN generate_series(1, ${RECORDS_EACH}) r WHERE d."organization_key" = $1`,
          [orgKey],
        );
      }
      await db.query(`ANALYZE "${MIGRATION_SCHEMA}"."documents"`);
    });
  }, 240000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await app?.close();
    await database?.drop();
    await redis?.kill();
  });

  const progress = async (organizationId: string, migrationId: string) =>
    (await api.status(organizationId, migrationId)).body.result.data;

  /** Polls until a worker has committed at least one more batch than `after`. */
  const advancedBeyond = async (organizationId: string, migrationId: string, after: number, timeoutMs = 60000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const data = await progress(organizationId, migrationId);
      if (data.migratedDocuments > after || (data.status !== 'in_progress' && data.status !== 'pending')) return data;
      if (Date.now() > deadline) throw new Error(`no progress beyond ${after}: ${JSON.stringify(data)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const waitFinished = async (organizationId: string, migrationId: string, timeoutMs = 240000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const data = await progress(organizationId, migrationId);
      if (!['pending', 'in_progress'].includes(data.status)) return data;
      if (Date.now() > deadline)
        throw new Error(
          `not finished: ${JSON.stringify(data)}\n${workers
            .map((w) => w.output.join(''))
            .join('\n---\n')
            .slice(-4000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const expectExactlyOnce = async (source: string, target: string, documents: number) =>
    withDb(app, async (db) => {
      const row = (
        await db.query(
          `SELECT
             (SELECT count(*)::int FROM "${MIGRATION_SCHEMA}"."documents" d JOIN "${MIGRATION_SCHEMA}"."organizations" o ON o."key" = d."organization_key" WHERE o."id" = $1) AS "left",
             (SELECT count(*)::int FROM "${MIGRATION_SCHEMA}"."documents" d JOIN "${MIGRATION_SCHEMA}"."organizations" o ON o."key" = d."organization_key" WHERE o."id" = $2) AS "moved",
             (SELECT count(DISTINCT d."id")::int FROM "${MIGRATION_SCHEMA}"."documents" d JOIN "${MIGRATION_SCHEMA}"."organizations" o ON o."key" = d."organization_key" WHERE o."id" = $2) AS "distinct_ids",
             (SELECT count(*)::int FROM "${MIGRATION_SCHEMA}"."records" r JOIN "${MIGRATION_SCHEMA}"."documents" d ON d."key" = r."document_key"
                JOIN "${MIGRATION_SCHEMA}"."organizations" o ON o."key" = d."organization_key" WHERE o."id" = $2) AS "records"`,
          [source, target],
        )
      ).rows[0];
      expect(row).toEqual({ left: 0, moved: documents, distinct_ids: documents, records: documents * RECORDS_EACH });
    });

  it('completes 100,000 documents x 5 records exactly once while workers are SIGKILLed at random moments', async () => {
    const started = await api.start({ organizationId: 'a', targetOrganizationId: 'b' });
    expect(started.status).toBe(200);
    const { migrationId } = started.body.result.data;
    workers.push(new WorkerProcess(workerEnv()), new WorkerProcess(workerEnv()));
    workers.forEach((worker) => worker.start());

    const killedAt: number[] = [];
    let last = 0;
    while (killedAt.length < 6) {
      // A victim that is up and working: its BullMQ worker holds jobs and its transactions are in flight.
      const victim = await waitFor<WorkerProcess | undefined>(
        () => {
          const up = workers.filter((worker) => worker.ready);
          return up.length > 0 ? up[randomInt(0, up.length)] : undefined;
        },
        { timeoutMs: 60000, what: 'a running worker' },
      );
      const data = await advancedBeyond('a', migrationId, last);
      expect(data.status).toBe('in_progress');
      await new Promise((resolve) => setTimeout(resolve, randomInt(0, 1500)));
      if (!victim) throw new Error('no running worker');
      await victim.kill();
      killedAt.push((await progress('a', migrationId)).migratedDocuments);
      last = killedAt[killedAt.length - 1]!;
      victim.start();
    }
    expect(killedAt.every((moved) => moved < DOCUMENTS)).toBe(true);

    const final = await waitFinished('b', migrationId);
    expect(final).toMatchObject({
      status: 'completed',
      totalDocuments: DOCUMENTS,
      migratedDocuments: DOCUMENTS,
      failureReason: null,
    });
    expect(workers.reduce((sum, worker) => sum + worker.kills, 0)).toBeGreaterThanOrEqual(5);
    await expectExactlyOnce('a', 'b', DOCUMENTS);
  }, 600000);

  it('completes exactly once across a Redis restart that loses every job, with a worker killed after it', async () => {
    const started = await api.start({ organizationId: 'c', targetOrganizationId: 'd' });
    const { migrationId } = started.body.result.data;
    const first = await advancedBeyond('c', migrationId, 0);
    expect(first.status).toBe('in_progress');
    const untouched = await withDb(
      app,
      async (db) =>
        (
          await db.query(
            `SELECT count(*)::int AS n FROM "${MIGRATION_SCHEMA}"."migration_slices" WHERE "migration_id" = $1 AND "moved" = 0 AND NOT "done"`,
            [migrationId],
          )
        ).rows[0].n,
    );
    // Slices nobody has started yet exist only as jobs in Redis, which the restart wipes: only the reconciler can bring them back.
    expect(untouched).toBeGreaterThan(0);
    await redis.kill();
    await redis.start();
    const afterRestart = await advancedBeyond('c', migrationId, (await progress('c', migrationId)).migratedDocuments);
    if (afterRestart.status === 'in_progress') {
      await workers[0]!.kill();
      workers[0]!.start();
    }
    const final = await waitFinished('d', migrationId);
    expect(final).toMatchObject({ status: 'completed', totalDocuments: DOCUMENTS, migratedDocuments: DOCUMENTS });
    await expectExactlyOnce('c', 'd', DOCUMENTS);
  }, 600000);
});
