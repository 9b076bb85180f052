import { join } from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { startRedisCluster, StartedRedisCluster, waitFor } from '@acme/platform-test-infra';
import { ROOT } from './support/built-service';
import { call, OUTAGE_BOOTSTRAP, SourceService, startServiceFromSource } from './support/source-service';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

const ADMIN = 'cluster-failover-admin-token-0123456789';
const admin = { authorization: `Bearer ${ADMIN}` };
const DOCUMENTS = 20_000;

interface Sample {
  started: number;
  ended: number;
  status: number;
}

/** Token requests from `concurrency` loops until `stop()`; each answer's time and status is kept. */
function tokenLoad(url: string, concurrency: number) {
  const samples: Sample[] = [];
  let running = true;
  const body = JSON.stringify({
    grant_type: 'client_credentials',
    client_id: OUTAGE_BOOTSTRAP.id,
    client_secret: OUTAGE_BOOTSTRAP.secret,
    audience: OUTAGE_BOOTSTRAP.audience,
  });
  const loop = async () => {
    while (running) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(`${url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = -1;
      }
      samples.push({ started, ended: performance.now(), status });
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The longest time without any answer, and the slowest single answer, over the samples after `from`. */
function gaps(samples: Sample[], from: number): { longestGapMs: number; slowestMs: number } {
  const after = samples.filter((s) => s.ended >= from).sort((a, b) => a.ended - b.ended);
  let longestGapMs = 0;
  for (let i = 1; i < after.length; i += 1) longestGapMs = Math.max(longestGapMs, after[i].ended - after[i - 1].ended);
  return {
    longestGapMs: Math.round(longestGapMs),
    slowestMs: Math.round(Math.max(...after.map((s) => s.ended - s.started))),
  };
}

/** The port of the master that serves `key`'s slot, asked of any node. */
async function masterOf(cluster: StartedRedisCluster, key: string): Promise<number> {
  const probe = new Redis({ port: cluster.masterPorts()[0], host: '127.0.0.1', lazyConnect: true });
  try {
    await probe.connect();
    const slot = Number(await probe.call('CLUSTER', 'KEYSLOT', key));
    const ranges = (await probe.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    const owner = ranges.find(([low, high]) => slot >= low && slot <= high);
    if (!owner) throw new Error(`no owner for slot ${slot}`);
    return owner[2][1];
  } finally {
    probe.disconnect();
  }
}

async function hasReplica(port: number): Promise<boolean> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    await probe.connect();
    return /connected_slaves:[1-9]/.test(String(await probe.call('INFO', 'replication')));
  } finally {
    probe.disconnect();
  }
}

/**
 * Redis Cluster failover under load: a master is SIGKILLed while the token endpoint takes steady load through a
 * rate-limit policy and a migration runs on BullMQ; its replica takes over. Every token request is answered
 * (the limiter may fail open for the seconds of the takeover), and the migration completes exactly once.
 */
describe('Redis Cluster: a master killed under load', () => {
  let cluster: StartedRedisCluster;
  let management: SourceService;
  let migration: SourceService;
  const prefix = `failover-${process.pid}`;

  beforeAll(async () => {
    cluster = await startRedisCluster({
      dir: join(ROOT, '.data', `redis-cluster-failover-${process.pid}`),
      nodeTimeoutMs: 1000,
    });
    const env = {
      REDIS_CLUSTER_NODES: cluster.nodes,
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
    };
    [management, migration] = await Promise.all([
      startServiceFromSource('management-api', {
        ...env,
        MANAGEMENT_BOOTSTRAP_CLIENT_ID: OUTAGE_BOOTSTRAP.id,
        MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: OUTAGE_BOOTSTRAP.secret,
        PUBLIC_URL: 'https://tenant.test',
        MANAGEMENT_RATE_LIMIT_PER_SECOND: '100000',
      }),
      startServiceFromSource('migration-worker', {
        ...env,
        MIGRATION_BATCH_SIZE: '50',
        MIGRATION_SLICE_SIZE: '2000',
        MIGRATION_RECONCILE_INTERVAL_MS: '1000',
        MIGRATION_LOCK_DURATION_MS: '2000',
        MIGRATION_STALLED_INTERVAL_MS: '1000',
      }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([management?.stop(), migration?.stop()]);
    await cluster?.stop();
  }, 120_000);

  it('keeps answering every token request and completes the migration exactly once', async () => {
    const token = (
      await call(`${management.url}/oauth/token`, {
        body: {
          grant_type: 'client_credentials',
          client_id: OUTAGE_BOOTSTRAP.id,
          client_secret: OUTAGE_BOOTSTRAP.secret,
          audience: OUTAGE_BOOTSTRAP.audience,
        },
      })
    ).body.access_token;
    const policy = await call(`${management.url}/api/v2/rate-limit-policies`, {
      headers: { authorization: `Bearer ${token}` },
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: `client_id:${OUTAGE_BOOTSTRAP.id}`,
        configuration: { action: 'block', limit: 10000 },
      },
    });
    expect(policy.status).toBe(201);
    const limited = await waitFor(
      async () => {
        const reply = await call(`${management.url}/oauth/token`, {
          body: {
            grant_type: 'client_credentials',
            client_id: OUTAGE_BOOTSTRAP.id,
            client_secret: OUTAGE_BOOTSTRAP.secret,
            audience: OUTAGE_BOOTSTRAP.audience,
          },
        });
        return reply.headers.get('x-ratelimit-limit') ? reply : undefined;
      },
      { what: 'the policy to apply' },
    );
    expect(limited?.status).toBe(200);

    const workspace = (
      await call(`${migration.url}/admin/v1/workspaces`, { body: { name: 'failover' }, headers: admin })
    ).body;
    const keys = { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken };
    for (const organizationId of ['org-a', 'org-b'])
      await call(`${migration.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, {
        body: { organizationId },
        headers: admin,
      });
    const db = new Client({ connectionString: migration.database.url });
    await db.connect();
    try {
      const orgKey = (await db.query(`SELECT "key" FROM "${MIGRATION_SCHEMA}"."organizations" WHERE "id" = 'org-a'`))
        .rows[0].key;
      await db.query(
        `INSERT INTO "${MIGRATION_SCHEMA}"."documents" ("organization_key", "id", "title", "content") SELECT $1, 'd-' || g, 't', 'c' FROM generate_series(1, $2::int) g`,
        [orgKey, DOCUMENTS],
      );

      const load = tokenLoad(management.url, 8);
      const started = await call(`${migration.url}/v2/organizations/documents/migrate`, {
        body: { data: { organizationId: 'org-a', targetOrganizationId: 'org-b' } },
        headers: keys,
      });
      expect(started.status).toBe(200);
      const { migrationId } = started.body.result.data;
      const status = async () =>
        (
          await call(`${migration.url}/v2/organizations/documents/migrate/status`, {
            body: { data: { organizationId: 'org-a', migrationId } },
            headers: keys,
          })
        ).body.result.data;
      await waitFor(async () => (await status()).migratedDocuments > 0, {
        timeoutMs: 30_000,
        what: 'the migration to start moving documents',
      });

      const killed: number[] = [];
      let killAt = 0;
      try {
        // The master of the queue's slot first (every BullMQ key of the app lives there), then, if it is another
        // node, the master that now holds the token bucket of the policy's client.
        killAt = performance.now();
        const queueMaster = await masterOf(cluster, `{${prefix}:bull}`);
        await cluster.kill(queueMaster);
        killed.push(queueMaster);
        await waitFor(() => cluster.masterPorts().length === 3 || undefined, {
          timeoutMs: 15_000,
          intervalMs: 100,
          what: 'a replica promoted',
        });
        const bucketMaster = await masterOf(
          cluster,
          `${prefix}:rl:tb:policy:${policy.body.id}:c:${OUTAGE_BOOTSTRAP.id}`,
        );
        // Only a master with a live replica can fail over (the first victim's replica, now a master, has none).
        if (bucketMaster && !killed.includes(bucketMaster) && (await hasReplica(bucketMaster))) {
          await cluster.kill(bucketMaster);
          killed.push(bucketMaster);
          await waitFor(() => cluster.masterPorts().length === 3 || undefined, {
            timeoutMs: 15_000,
            intervalMs: 100,
            what: 'a second replica promoted',
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 2000));
      } finally {
        // Stopped whatever happens: loops left running against stopped services would spin.
        await load.stop();
      }
      const statuses = new Set(load.samples.map((s) => s.status));
      expect([...statuses]).toEqual([200]);
      const metrics = await (await fetch(`${management.url}/metrics`)).text();
      const failOpen = Number(/^http_rate_limit_fail_open_total\{limit="policy"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
      const figures = {
        requests: load.samples.length,
        killed: killed.length,
        failOpen,
        ...gaps(load.samples, killAt - 1000),
      };
      process.stdout.write(`cluster failover: ${JSON.stringify(figures)}\n`);
      // The limiter never waits more than 100 ms on Redis; what remains is the takeover seen by the other calls.
      expect(figures.longestGapMs).toBeLessThan(3000);

      const final = await waitFor(
        async () => {
          const data = await status();
          return data.status === 'pending' || data.status === 'in_progress' ? undefined : data;
        },
        { timeoutMs: 120_000, intervalMs: 250, what: 'the migration to finish' },
      );
      expect(final).toMatchObject({ status: 'completed', totalDocuments: DOCUMENTS, migratedDocuments: DOCUMENTS });
      const counts = (
        await db.query(
          `SELECT o."id", count(d.*)::int AS n, count(DISTINCT d."id")::int AS ids FROM "${MIGRATION_SCHEMA}"."organizations" o
           LEFT JOIN "${MIGRATION_SCHEMA}"."documents" d ON d."organization_key" = o."key" GROUP BY o."id" ORDER BY o."id"`,
        )
      ).rows;
      expect(counts).toEqual([
        { id: 'org-a', n: 0, ids: 0 },
        { id: 'org-b', n: DOCUMENTS, ids: DOCUMENTS },
      ]);
    } finally {
      await db.end();
    }
  }, 300_000);
});
