import { createTestRedisConnection, createTestRedisPrefix, deleteTestKeys } from '@acme/platform-test-infra';
import { LEASE_MS, RateLimiter } from './rate-limiter';

/**
 * A leased limit (>= 200) shared by two instances over real Redis: the lease may leave tokens unused (at most
 * 1 % of the limit per instance per LEASE_MS) but never admits more than the bucket holds.
 */
describe('leased takes from two instances (real Redis)', () => {
  const prefix = createTestRedisPrefix('lease');
  const clients = [createTestRedisConnection(`${prefix}:`), createTestRedisConnection(`${prefix}:`)];
  const limiters = clients.map((client) => new RateLimiter(client));
  const patient = { timeoutMs: 10_000, lease: true };

  beforeAll(() => Promise.all(clients.map((client) => client.ping())));
  afterAll(async () => {
    await deleteTestKeys(prefix);
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('admits at most the burst of a bucket that does not refill, less only by the unused leases', async () => {
    const limit = { capacity: 1000, refillPerSecond: 0.001 };
    const decisions = await Promise.all(
      Array.from({ length: 1500 }, (_, i) => limiters[i % 2].tokenBucket('burst', limit, patient)),
    );
    const admitted = decisions.filter((d) => d.allowed).length;
    expect(admitted).toBeLessThanOrEqual(1000);
    // Each instance's batch asked 1 % (10 tokens) beyond its takes; one may go unused.
    expect(admitted).toBeGreaterThanOrEqual(1000 - 2 * 10);
  });

  it('keeps a refilling bucket within its limit and within 1 % per instance per lease of it over a second', async () => {
    const limit = { capacity: 400, refillPerSecond: 400 };
    const started = Date.now();
    let admitted = 0;
    const caller = async (limiter: RateLimiter) => {
      while (Date.now() - started < 1000) {
        const waves = await Promise.all(
          Array.from({ length: 20 }, () => limiter.tokenBucket('refilling', limit, patient)),
        );
        admitted += waves.filter((d) => d.allowed).length;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all([caller(limiters[0]), caller(limiters[1]), caller(limiters[0]), caller(limiters[1])]);
    const seconds = (Date.now() - started) / 1000;
    const most = limit.capacity + limit.refillPerSecond * seconds;
    // Unused leases: 1 % of the limit (4 tokens) per instance per LEASE_MS at the very most.
    const leaseLoss = 2 * (limit.capacity / 100) * Math.ceil((seconds * 1000) / LEASE_MS);
    expect(admitted).toBeLessThanOrEqual(Math.ceil(most));
    expect(admitted).toBeGreaterThanOrEqual(Math.floor(limit.capacity + limit.refillPerSecond * 1 - leaseLoss));
  });
});
