import {
  createTestRedisConnection,
  createTestRedisPrefix,
  deleteTestKeys,
  waitForRoomInWindow,
} from '@acme/platform-test-infra';
import { rateLimitHeaders } from './rate-limit-enforcer';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter (real Redis)', () => {
  const prefix = createTestRedisPrefix('rl');
  // Two clients stand for two service instances sharing one Redis (or one cluster, in the cluster pass).
  const clients = [createTestRedisConnection(`${prefix}:`), createTestRedisConnection(`${prefix}:`)];
  const limiters = clients.map((client) => new RateLimiter(client));
  // These tests check decisions, not the 100 ms bound (limiter-outage.int-spec.ts does): a loaded CI machine
  // running the cluster pass can take longer than that for 300 racing calls, which is not what is tested here.
  const patient = { timeoutMs: 10_000 };

  // A limiter refuses while its connection is not ready (limiter-outage.int-spec.ts); connect first.
  beforeAll(() => Promise.all(clients.map((client) => client.ping())));

  afterAll(async () => {
    await deleteTestKeys(prefix);
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('admits exactly the burst when many requests race from two instances', async () => {
    const decisions = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        limiters[i % 2].tokenBucket('race', { capacity: 50, refillPerSecond: 0.001 }, patient),
      ),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused.every((d) => d.remaining === 0 && d.retryAfterSeconds >= 1)).toBe(true);
  });

  it('answers concurrent takes of one bucket in order, as if they had been made one by one', async () => {
    const limit = { capacity: 5, refillPerSecond: 0.001 };
    const decisions = await Promise.all(
      Array.from({ length: 8 }, () => limiters[0].tokenBucket('in-order', limit, patient)),
    );
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(decisions[5].retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('refills at the configured rate and a refused request consumes nothing', async () => {
    // One token per 500 ms: wide enough that a loaded machine's gaps between the calls do not refill one.
    const limit = { capacity: 2, refillPerSecond: 2 };
    expect((await limiters[0].tokenBucket('refill', limit, patient)).allowed).toBe(true);
    expect((await limiters[0].tokenBucket('refill', limit, patient)).allowed).toBe(true);
    const refused = await limiters[1].tokenBucket('refill', limit, patient);
    expect(refused.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await limiters[1].tokenBucket('refill', limit, patient)).allowed).toBe(true);
  });

  it('refuses everything at capacity 0', async () => {
    const decision = await limiters[0].tokenBucket('zero', { capacity: 0, refillPerSecond: 0 }, patient);
    expect(decision).toMatchObject({ allowed: false, limit: 0, remaining: 0 });
  });

  it('reports remaining and a reset time in Unix seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const decision = await limiters[0].tokenBucket('headers', { capacity: 10, refillPerSecond: 10 }, patient);
    expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 9, retryAfterSeconds: 0 });
    expect(decision.resetAt).toBeGreaterThanOrEqual(before);
    expect(decision.resetAt).toBeLessThanOrEqual(before + 3);
    expect(rateLimitHeaders(decision)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '9',
      'X-RateLimit-Reset': String(decision.resetAt),
    });
  });

  it('enforces every fixed window at once and counts only admitted requests', async () => {
    const windows = [
      { limit: 5, windowSeconds: 2 },
      { limit: 7, windowSeconds: 60 },
    ];
    // Windows turn over on clock boundaries: start where both have room for the whole test.
    await waitForRoomInWindow(60, 10);
    await waitForRoomInWindow(2, 1.5);
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiters[i % 2].fixedWindows('windows', windows, 1, patient)),
    );
    expect(first.filter((d) => d.allowed)).toHaveLength(5);
    const blocked = first.find((d) => !d.allowed)!;
    expect(blocked).toMatchObject({ limit: 5, remaining: 0 });
    expect(Number(rateLimitHeaders(blocked)['Retry-After'])).toBeGreaterThanOrEqual(1);
    // Next short window: it reopens, while the per-minute one has only 2 left. Waited for by the end of the window
    // the first requests were decided in (Redis's clock): on a loaded machine they can run past the window the test
    // started in, and a wait from the test's own clock then found that later window already begun.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, blocked.resetAt * 1000 - Date.now()) + 50));
    const second = await Promise.all(
      Array.from({ length: 5 }, () => limiters[0].fixedWindows('windows', windows, 1, patient)),
    );
    expect(second.filter((d) => d.allowed)).toHaveLength(2);
    expect(second.find((d) => !d.allowed)).toMatchObject({ limit: 7, remaining: 0 });
  });
});
