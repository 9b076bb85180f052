import { join } from 'node:path';
import { Cluster } from 'ioredis';
import {
  createTestRedisPrefix,
  startRedisCluster,
  StartedRedisCluster,
  testClusterSeeds,
  waitFor,
} from '@acme/platform-test-infra';
import { createRedisClient, type RedisClient } from './redis-client';
import { RedisPubSub } from './redis-pubsub';
import { parseClusterNodes } from './redis-url';

/**
 * The platform client on a real Redis Cluster: the cluster pass's shared one, or one of its own when this file
 * runs alone. Keys of different limit keys spread over the masters; one key's script runs on its slot's master.
 */
describe('Redis Cluster client', () => {
  let own: StartedRedisCluster | undefined;
  let client: RedisClient;
  let seeds: ReturnType<typeof parseClusterNodes>;
  const prefix = createTestRedisPrefix('cluster');

  beforeAll(async () => {
    seeds = testClusterSeeds();
    if (!seeds) {
      own = await startRedisCluster({
        dir: join(__dirname, '../../../../../.data', `redis-cluster-int-${process.pid}`),
      });
      seeds = parseClusterNodes(own.nodes);
    }
    client = createRedisClient({ url: 'redis://127.0.0.1:1', prefix, clusterNodes: seeds });
    await waitFor(() => client.status === 'ready', { what: 'the cluster client' });
  }, 60_000);

  afterAll(async () => {
    await client?.quit();
    await own?.stop();
  });

  it('is an ioredis Cluster when seed nodes are given, and parses the seed list strictly', () => {
    expect(client).toBeInstanceOf(Cluster);
    expect(parseClusterNodes('10.0.0.1:7000, redis-2:7001')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-2', port: 7001 },
    ]);
    for (const bad of ['', 'host', 'host:', 'host:0', 'host:70000', 'a:1,,b:2'])
      expect(parseClusterNodes(bad)).toBeUndefined();
  });

  it('spreads the keys of different limit keys over every master, under the deployment prefix', async () => {
    const cluster = client as Cluster;
    for (let i = 0; i < 60; i += 1) await cluster.set(`rl:tb:policy:p1:c:client-${i}`, '1', 'EX', 30);
    const perMaster = await Promise.all(
      cluster.nodes('master').map(async (node) => (await node.keys(`${prefix}:rl:tb:*`)).length),
    );
    expect(perMaster.reduce((sum, n) => sum + n, 0)).toBe(60);
    expect(perMaster.every((n) => n > 0)).toBe(true);
  });

  it('delivers a publish from any node to a subscriber on another', async () => {
    const other = createRedisClient({ url: 'redis://127.0.0.1:1', prefix, clusterNodes: seeds });
    const [receiving, sending] = [new RedisPubSub(client, prefix), new RedisPubSub(other, prefix)];
    const seen: string[] = [];
    try {
      await receiving.subscribe('invalidate', (message) => seen.push(message));
      await sending.publish('invalidate', 'policy:1');
      await waitFor(() => seen.length === 1 || undefined, { what: 'the message' });
      expect(seen).toEqual(['policy:1']);
    } finally {
      await receiving.onApplicationShutdown();
      await other.quit();
    }
  });
});
