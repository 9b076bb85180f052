import { randomBytes } from 'node:crypto';
import Redis, { Cluster } from 'ioredis';
import { Client } from 'pg';

/** The server `npm test` found or started (it exports DATABASE_URL and REDIS_URL before Jest runs). */
export const testDatabaseServerUrl = () => process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = () => process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** Set while `npm test` runs its cluster pass against a real Redis Cluster. */
export const testRedisClusterNodes = () => process.env['REDIS_CLUSTER_NODES'] || undefined;

/** The Redis variables an app under test gets: the cluster's seed nodes during the cluster pass. */
export function testRedisEnv(): Record<string, string> {
  const nodes = testRedisClusterNodes();
  return nodes ? { REDIS_URL: testRedisUrl(), REDIS_CLUSTER_NODES: nodes } : { REDIS_URL: testRedisUrl() };
}

/** The cluster's seed nodes as ioredis takes them, during the cluster pass. */
export function testClusterSeeds(): { host: string; port: number }[] | undefined {
  return testRedisClusterNodes()
    ?.split(',')
    .map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) }));
}

/** Options for the platform's Redis client (RedisModule, createRedisClient) in a test. */
export const testRedisOptions = (prefix: string) => ({ url: testRedisUrl(), prefix, clusterNodes: testClusterSeeds() });

/** A direct connection to the test Redis (or cluster), for a test's own reads and writes. */
export function createTestRedisConnection(keyPrefix?: string): Redis | Cluster {
  const seeds = testClusterSeeds();
  return seeds ? new Cluster(seeds, { keyPrefix }) : new Redis(testRedisUrl(), { keyPrefix });
}

/** Deletes a test's keys (`prefix:*`) on a server, or on every master of a cluster. */
export async function deleteTestKeys(prefix: string): Promise<void> {
  const connection = createTestRedisConnection();
  try {
    if (connection instanceof Cluster && connection.status !== 'ready')
      await new Promise((resolve) => connection.once('ready', resolve));
    const servers = connection instanceof Cluster ? connection.nodes('master') : [connection];
    for (const server of servers) for (const key of await server.keys(`${prefix}:*`)) await server.del(key);
  } finally {
    connection.disconnect();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const uniqueSuffix = () => `${process.pid.toString(36)}_${randomBytes(4).toString('hex')}`;

/** A fresh database per test file, so files run in parallel without seeing each other's rows. */
export async function createTestDatabase(label = 'test', serverUrl = testDatabaseServerUrl()): Promise<TestDatabase> {
  const name = `t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${uniqueSuffix()}`;
  const adminUrl = serverUrl;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis key prefix (queues included) that no other test file uses. */
export function createTestRedisPrefix(label = 'test'): string {
  return `t:${label}:${uniqueSuffix()}`;
}
