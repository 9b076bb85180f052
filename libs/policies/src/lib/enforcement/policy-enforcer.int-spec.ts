import { Logger } from '@nestjs/common';
import { createServer, Server, Socket } from 'node:net';
import { MetricsRegistry } from '@acme/platform-observability';
import { RateLimitEnforcer, RateLimiter } from '@acme/platform-rate-limiting';
import { createRedisClient, type RedisClient } from '@acme/platform-redis';
import { createTestRedisPrefix, deleteTestKeys, testRedisOptions, waitFor } from '@acme/platform-testing';
import { PolicyConfiguration } from '../policy-rules';
import { EnforceablePolicy, EnforceablePolicySource } from './enforceable-policy';
import { ExcessLogThrottle } from './excess-log-throttle';
import { EnforcementPolicyCache } from './policy-cache';
import { PolicyEnforcer } from './policy-enforcer';

class FixedSource extends EnforceablePolicySource {
  constructor(public rows: EnforceablePolicy[]) {
    super();
  }
  async loadAll(): Promise<EnforceablePolicy[]> {
    return this.rows;
  }
  async onChanged(): Promise<unknown> {
    return undefined;
  }
}

const policy = (id: string, consumerSelector: string, configuration: PolicyConfiguration): EnforceablePolicy => ({
  id,
  resource: 'oauth_authentication_api',
  consumer: 'client',
  consumerSelector,
  configuration,
});

const settings = { limiterTimeoutMs: 1000, reloadIntervalSeconds: 0 };

describe('PolicyEnforcer (real Redis)', () => {
  const clients: RedisClient[] = [];
  let redis: RedisClient;
  let prefix: string;

  async function enforcerFor(rows: EnforceablePolicy[], connection = redis) {
    const cache = new EnforcementPolicyCache(new FixedSource(rows), settings);
    await cache.onApplicationBootstrap();
    const registry = new MetricsRegistry();
    return {
      enforcer: new PolicyEnforcer(
        cache,
        new RateLimitEnforcer(new RateLimiter(connection), registry),
        connection,
        settings,
        registry,
      ),
      registry,
      cache,
    };
  }

  const excessCount = async (registry: MetricsRegistry, policyId: string, action: string) => {
    const metric = await registry.getSingleMetric('oauth_rate_limit_policy_excess_total')?.get();
    return metric?.values.find((v) => v.labels['policy_id'] === policyId && v.labels['action'] === action)?.value ?? 0;
  };

  beforeAll(async () => {
    prefix = createTestRedisPrefix('enforcer');
    redis = createRedisClient(testRedisOptions(prefix));
    clients.push(redis);
    await waitFor(() => redis.status === 'ready', { what: 'redis' });
  });
  afterAll(async () => {
    await deleteTestKeys(prefix);
    for (const client of clients) {
      if (client.status === 'ready') await client.quit();
      else client.disconnect();
    }
  });

  it('proceeds without any header when no policy applies or the policy allows', async () => {
    const { enforcer } = await enforcerFor([policy('rlp_allow', 'client_id:vip', { action: 'allow' })]);
    expect(await enforcer.enforce({ clientId: 'other', isFirstParty: true })).toEqual({ outcome: 'proceed' });
    for (let i = 0; i < 20; i += 1) {
      expect(await enforcer.enforce({ clientId: 'vip', isFirstParty: false })).toEqual({
        outcome: 'proceed',
        policyId: 'rlp_allow',
      });
    }
  });

  it('blocks past the burst with Retry-After and X-RateLimit-* headers', async () => {
    const { enforcer, registry } = await enforcerFor([policy('rlp_block', 'default', { action: 'block', limit: 3 })]);
    const client = { clientId: 'blocked-client', isFirstParty: true };
    const decisions = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await enforcer.enforce(client));
    expect(decisions.slice(0, 3).map((d) => d.outcome)).toEqual(['proceed', 'proceed', 'proceed']);
    expect(decisions[0]).toMatchObject({ limit: { allowed: true, limit: 3, remaining: 2 } });
    const refused = decisions[4];
    expect(refused.outcome).toBe('reject');
    if (refused.outcome !== 'reject') return;
    expect(refused.limit).toMatchObject({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1 });
    expect(refused.limit.resetAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(await excessCount(registry, 'rlp_block', 'block')).toBe(2);
    // default counts every client separately
    expect((await enforcer.enforce({ clientId: 'someone-else', isFirstParty: true })).outcome).toBe('proceed');
  });

  it('pools every client of a group policy in one bucket', async () => {
    const { enforcer } = await enforcerFor([policy('rlp_group', 'third_party_clients', { action: 'block', limit: 2 })]);
    expect((await enforcer.enforce({ clientId: 'tp1', isFirstParty: false })).outcome).toBe('proceed');
    expect((await enforcer.enforce({ clientId: 'tp2', isFirstParty: false })).outcome).toBe('proceed');
    expect((await enforcer.enforce({ clientId: 'tp3', isFirstParty: false })).outcome).toBe('reject');
    expect((await enforcer.enforce({ clientId: 'tp1', isFirstParty: false })).outcome).toBe('reject');
  });

  it('blocks every request at limit 0, even with Redis unavailable', async () => {
    const down = createRedisClient({ url: 'redis://127.0.0.1:1', prefix });
    clients.push(down);
    const { enforcer } = await enforcerFor([policy('rlp_zero', 'client_id:z', { action: 'block', limit: 0 })], down);
    const decision = await enforcer.enforce({ clientId: 'z', isFirstParty: true });
    expect(decision).toMatchObject({
      outcome: 'reject',
      limit: { allowed: false, limit: 0, remaining: 0, retryAfterSeconds: 1 },
    });
  });

  it('redirects past the limit', async () => {
    const uri = 'https://example.com/slow-down';
    const { enforcer } = await enforcerFor([
      policy('rlp_redirect', 'cimd_clients', { action: 'redirect', limit: 1, redirect_uri: uri }),
    ]);
    const client = { clientId: 'https://app.example.com/meta.json', isFirstParty: true };
    expect((await enforcer.enforce(client)).outcome).toBe('proceed');
    expect(await enforcer.enforce(client)).toEqual({ outcome: 'redirect', policyId: 'rlp_redirect', location: uri });
  });

  it('lets log-policy excess through, counts each one and logs at most one line a minute per client and policy', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const { enforcer, registry } = await enforcerFor([
        policy('rlp_log', 'client_id:noisy', { action: 'log', limit: 1 }),
      ]);
      const client = { clientId: 'noisy', isFirstParty: true };
      for (let i = 0; i < 6; i += 1) expect((await enforcer.enforce(client)).outcome).toBe('proceed');
      expect(await excessCount(registry, 'rlp_log', 'log')).toBe(5);
      // Only the excess lines count: an earlier test's unreachable Redis client may still log its reconnects.
      const excessLines = () =>
        warn.mock.calls.filter(([line]) => (line as { event?: string }).event === 'rate_limit_policy_exceeded');
      await waitFor(() => excessLines().length >= 1, { what: 'the excess log line' });
      expect(excessLines()).toHaveLength(1);
      expect(excessLines()[0][0]).toMatchObject({
        event: 'rate_limit_policy_exceeded',
        policy_id: 'rlp_log',
        client_id: 'noisy',
        action: 'log',
      });
    } finally {
      warn.mockRestore();
    }
  });

  it('claims the once-a-minute log slot across instances', async () => {
    const first = new ExcessLogThrottle(redis);
    const second = new ExcessLogThrottle(redis);
    expect(await first.claim('rlp_x', 'client')).toBe(true);
    expect(await first.claim('rlp_x', 'client')).toBe(false);
    expect(await second.claim('rlp_x', 'client')).toBe(false);
    expect(await second.claim('rlp_x', 'another-client')).toBe(true);
  });

  it('fails open, counted and logged, when Redis is unreachable', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const down = createRedisClient({ url: 'redis://127.0.0.1:1', prefix });
      clients.push(down);
      const { enforcer, registry } = await enforcerFor(
        [policy('rlp_down', 'default', { action: 'block', limit: 1 })],
        down,
      );
      for (let i = 0; i < 3; i += 1)
        expect(await enforcer.enforce({ clientId: 'c', isFirstParty: true })).toEqual({ outcome: 'proceed' });
      const failOpen = await registry.getSingleMetric('http_rate_limit_fail_open_total')?.get();
      expect(failOpen?.values).toEqual([expect.objectContaining({ labels: { limit: 'policy' }, value: 3 })]);
      expect(
        warn.mock.calls.filter(([line]) => (line as { event?: string }).event === 'rate_limit_fail_open'),
      ).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('fails open within the limiter timeout when Redis accepts the command but never answers', async () => {
    // A local stand-in for a hung Redis: it passes ioredis' ready check, then swallows every command.
    const sockets: Socket[] = [];
    const hung: Server = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (data) => {
        // Each RESP command is `*<n>` then `$<len>` + argument lines; the name is the first argument.
        const lines = data.toString().split('\r\n');
        for (let i = 0; i < lines.length; i += 1) {
          if (!lines[i].startsWith('*')) continue;
          const name = (lines[i + 2] ?? '').toLowerCase();
          if (name === 'info') socket.write('$21\r\n# Server\r\nloading:0\r\n\r\n');
          else if (name !== 'evalsha' && name !== 'eval') socket.write('+OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let stuck: RedisClient | undefined;
    try {
      const port = (hung.address() as { port: number }).port;
      stuck = createRedisClient({ url: `redis://127.0.0.1:${port}`, prefix });
      const client = stuck;
      await waitFor(() => client.status === 'ready', { what: 'the stand-in to pass the ready check' });
      const short = { limiterTimeoutMs: 150, reloadIntervalSeconds: 0 };
      const cache = new EnforcementPolicyCache(
        new FixedSource([policy('rlp_hung', 'default', { action: 'block', limit: 1 })]),
        short,
      );
      await cache.onApplicationBootstrap();
      const registry = new MetricsRegistry();
      const limits = new RateLimitEnforcer(new RateLimiter(client), registry);
      const enforcer = new PolicyEnforcer(cache, limits, client, short, registry);
      const started = performance.now();
      expect(await enforcer.enforce({ clientId: 'c', isFirstParty: true })).toEqual({ outcome: 'proceed' });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(
        warn.mock.calls.some(([line]) => String((line as { reason?: string }).reason).includes('did not answer')),
      ).toBe(true);
    } finally {
      warn.mockRestore();
      stuck?.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});
