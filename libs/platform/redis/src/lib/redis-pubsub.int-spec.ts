import { createTestRedisConnection, createTestRedisPrefix, testRedisOptions } from '@acme/platform-test-infra';
import { createRedisClient } from './redis-client';
import { RedisPubSub } from './redis-pubsub';

describe('RedisPubSub (real Redis)', () => {
  const prefix = createTestRedisPrefix('pubsub');
  const clients = [createRedisClient(testRedisOptions(prefix)), createRedisClient(testRedisOptions(prefix))];
  const buses = clients.map((client) => new RedisPubSub(client, prefix));

  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.onApplicationShutdown()));
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('delivers a message published by one instance to subscribers on another', async () => {
    let deliver!: (message: string) => void;
    const received = new Promise<string>((resolve) => (deliver = resolve));
    await buses[1].subscribe('policies', (message) => deliver(message));
    await buses[0].publish('policies', 'changed:1');
    await expect(received).resolves.toBe('changed:1');
  });

  it('keeps channels of another prefix apart', async () => {
    const other = new RedisPubSub(clients[0], `${prefix}-other`);
    const seen: string[] = [];
    await buses[1].subscribe('isolated', (message) => seen.push(message));
    await other.publish('isolated', 'foreign');
    await buses[0].publish('isolated', 'own');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual(['own']);
  });

  it("subscribes to several channels at once on a new connection (the cluster subscriber node's ready check)", async () => {
    // On a cluster, ioredis connects the subscriber node lazily, and a SUBSCRIBE issued after its TCP connect but
    // before its INFO ready check is written first; the INFO then fails in subscriber mode. One new subscription
    // per turn of the event loop for 30 ms lands in that window.
    for (let round = 0; round < 5; round += 1) {
      const bus = new RedisPubSub(clients[0], prefix);
      const subscriptions: Promise<unknown>[] = [];
      for (const until = Date.now() + 30; Date.now() < until;) {
        subscriptions.push(bus.subscribe(`r${round}-${subscriptions.length}`, () => undefined));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await expect(Promise.all(subscriptions)).resolves.toHaveLength(subscriptions.length);
      await bus.onApplicationShutdown();
    }
  });

  it('prefixes keys written through the client', async () => {
    await clients[0].set('probe', '1', 'EX', 5);
    const raw = createTestRedisConnection();
    await expect(raw.get(`${prefix}:probe`)).resolves.toBe('1');
    await raw.quit();
  });
});
