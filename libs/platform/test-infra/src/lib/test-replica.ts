import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './redis-cluster-launcher';
import { ReplicaControls, startPrimaryWithReplica, testReplica } from './postgres-replica-launcher';
import { createTestDatabase, TestDatabase, testDatabaseServerUrl } from './test-infra';
import { waitFor } from './wait-for';

export interface TestReplica {
  /** A fresh database on the primary, streamed to the replica. */
  database: TestDatabase;
  /** The same database on the replica (DATABASE_READ_URLS). */
  replicaUrl: string;
  replica: ReplicaControls;
  /** Runs SQL on the replica (pg_wal_replay_pause(), ...). */
  onReplica(sql: string): Promise<unknown[]>;
  /** Resolves once the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  release(): Promise<void>;
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The replica `npm test` started for its replica pass (TEST_REPLICA_*), or a primary and replica of the file's
 * own when it runs alone; a database of the test's on both.
 */
export async function acquireTestReplica(label: string): Promise<TestReplica> {
  const shared = testReplica();
  const own = shared
    ? undefined
    : startPrimaryWithReplica({
        dir: join(tmpdir(), `acme-replica-${process.pid}`),
        primaryPort: await freePort(),
        replicaPort: await freePort(),
      });
  const replica = shared ?? own!.replica;
  const database = await createTestDatabase(label, own?.primaryUrl ?? testDatabaseServerUrl());
  const url = new URL(replica.url);
  url.pathname = `/${database.name}`;
  const replicaUrl = url.toString();
  const onReplica = (sql: string) => query(replicaUrl, sql);
  await waitFor(
    () =>
      onReplica('SELECT 1')
        .then(() => true)
        .catch(() => undefined),
    { timeoutMs: 30_000, what: 'the database on the replica' },
  );
  return {
    database,
    replicaUrl,
    replica,
    onReplica,
    async caughtUp() {
      const [{ lsn }] = (await query(database.url, 'SELECT pg_current_wal_insert_lsn()::text AS lsn')) as {
        lsn: string;
      }[];
      await waitFor(
        async () =>
          ((await onReplica(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`)) as { ok: boolean }[])[0].ok ||
          undefined,
        { what: 'the replica to catch up' },
      );
    },
    async release() {
      await database.drop();
      own?.stop();
    },
  };
}
