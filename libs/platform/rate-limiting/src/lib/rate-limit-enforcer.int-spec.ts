import Redis from 'ioredis';
import { MetricsRegistry } from '@acme/platform-observability';
import { createTestRedisConnection, createTestRedisPrefix, deleteTestKeys } from '@acme/platform-test-infra';
import { RateLimitEnforcer } from './rate-limit-enforcer';
import { RateLimiter } from './rate-limiter';

/** Keeps the event loop busy, as a CPU-heavy request elsewhere in the process would. */
function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const metricValue = async (registry: MetricsRegistry, name: string, limit: string) =>
  (await registry.getSingleMetric(name)?.get())?.values.find((value) => value.labels['limit'] === limit)?.value ?? 0;

describe('RateLimitEnforcer on a busy instance (real Redis)', () => {
  const prefix = createTestRedisPrefix('rl-busy');
  const redis = createTestRedisConnection(`${prefix}:`);
  const registry = new MetricsRegistry();
  const limiter = new RateLimiter(redis);
  const enforcer = new RateLimitEnforcer(limiter, registry);

  beforeAll(async () => {
    await redis.ping();
    // Loads the scripts, so the burst below is one round trip (the first call of a script may take two).
    await enforcer.decide('warm-up', { key: 'warm-up', rule: { tokenBucket: { capacity: 1, refillPerSecond: 1 } } });
    await enforcer.decideCredentialLimit('warm-up', { key: 'warm-up', windows: [{ limit: 1, windowSeconds: 1 }] });
  });
  afterAll(async () => {
    await deleteTestKeys(prefix);
    await redis.quit();
  });

  it('a burst against a 10/s policy admits 10 ± 1 while the event loop is blocked for 300 ms', async () => {
    const target = { key: 'busy-burst', rule: { tokenBucket: { capacity: 10, refillPerSecond: 10 } } };
    const burst = Promise.all(Array.from({ length: 40 }, () => enforcer.decide('busy', target)));
    // Runs after the limiter's flush has written the command: Redis answers at once, but the loop is busy for
    // three times the 100 ms limiter timeout before it can read the reply.
    setImmediate(() => blockLoop(300));
    const decisions = await burst;
    expect(decisions.every((decision) => decision !== undefined)).toBe(true);
    const admitted = decisions.filter((decision) => decision?.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(9);
    expect(admitted).toBeLessThanOrEqual(11);
    expect(await metricValue(registry, 'http_rate_limit_fail_open_total', 'busy')).toBe(0);
  });

  it('the same holds for fixed windows and credential limits', async () => {
    const windows = [{ limit: 10, windowSeconds: 3600 }];
    // From the check phase, as the token-bucket flush: the next loop turn runs its timers before it reads sockets.
    await new Promise((resolve) => setImmediate(resolve));
    const decisions = Promise.all(
      Array.from({ length: 20 }, () => enforcer.decideCredentialLimit('busy-credential', { key: 'busy-fw', windows })),
    );
    // Each command is written as it is called (no batching): block right away, before the replies are read.
    blockLoop(300);
    expect((await decisions).filter((decision) => decision.allowed)).toHaveLength(10);
    expect(await metricValue(registry, 'rate_limit_local_fallback_total', 'busy-credential')).toBe(0);
  });
});

describe('RateLimitEnforcer peeks (real Redis)', () => {
  const prefix = createTestRedisPrefix('rl-peek');
  const redis = createTestRedisConnection(`${prefix}:`);
  const limiter = new RateLimiter(redis);
  const enforcer = new RateLimitEnforcer(limiter, new MetricsRegistry());
  beforeAll(() => redis.ping());
  afterAll(async () => {
    await deleteTestKeys(prefix);
    await redis.quit();
  });

  it('concurrent peeks of one bucket share one round trip, and a peek spends nothing', async () => {
    const target = { key: 'peeked', windows: [{ limit: 3, windowSeconds: 3600 }] };
    const calls = jest.spyOn(limiter, 'fixedWindows');
    const peeks = await Promise.all(
      Array.from({ length: 10 }, () => enforcer.decideCredentialLimit('peek', target, { peek: true })),
    );
    expect(calls).toHaveBeenCalledTimes(1);
    expect(peeks.every((peek) => peek.allowed && peek.remaining === 3)).toBe(true);
    for (let i = 0; i < 3; i += 1) await enforcer.decideCredentialLimit('peek', target);
    expect(await enforcer.decideCredentialLimit('peek', target, { peek: true })).toMatchObject({ allowed: false });
    expect(calls).toHaveBeenCalledTimes(5);
  });
});

describe('RateLimitEnforcer with Redis unreachable', () => {
  const redis = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  const registry = new MetricsRegistry();
  const enforcer = new RateLimitEnforcer(new RateLimiter(redis), registry);
  afterAll(() => redis.disconnect());

  it('an ordinary limit fails open, counted', async () => {
    const target = { key: 'open', rule: { tokenBucket: { capacity: 1, refillPerSecond: 1 } } };
    for (let i = 0; i < 3; i += 1) expect(await enforcer.decide('ordinary', target)).toBeUndefined();
    expect(await metricValue(registry, 'http_rate_limit_fail_open_total', 'ordinary')).toBe(3);
  });

  it('a credential limit still refuses past its budget, with per-instance counters', async () => {
    const target = { key: 'guess', windows: [{ limit: 5, windowSeconds: 60 }] };
    const decisions = [];
    for (let i = 0; i < 8; i += 1) decisions.push(await enforcer.decideCredentialLimit('sign-in', target));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions[7].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // A peek says whether one more would pass, and spends nothing.
    const peek = await enforcer.decideCredentialLimit(
      'sign-in',
      { key: 'peeked', windows: target.windows },
      { peek: true },
    );
    expect(peek).toMatchObject({ allowed: true, remaining: 5 });
    expect(await metricValue(registry, 'rate_limit_local_fallback_total', 'sign-in')).toBe(9);
    expect(await metricValue(registry, 'http_rate_limit_fail_open_total', 'sign-in')).toBe(0);
  });

  it('a token bucket of capacity 0 refuses without Redis', async () => {
    const decision = await enforcer.decide('closed', {
      key: 'z',
      rule: { tokenBucket: { capacity: 0, refillPerSecond: 0 } },
    });
    expect(decision).toMatchObject({ allowed: false, limit: 0, retryAfterSeconds: 1 });
  });
});
