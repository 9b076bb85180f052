import { Logger } from '@nestjs/common';
import { waitFor } from '@acme/platform-testing';
import { EnforceablePolicy, EnforceablePolicySource } from './enforceable-policy';
import { EnforcementPolicyCache } from './policy-cache';

const policy = (id: string, consumerSelector: string): EnforceablePolicy => ({
  id,
  resource: 'oauth_authentication_api',
  consumer: 'client',
  consumerSelector,
  configuration: { action: 'block', limit: 1 },
});

/** An in-memory policy table whose loads the test can hold open. */
class FakeSource extends EnforceablePolicySource {
  rows: EnforceablePolicy[] = [];
  loads = 0;
  failNext = false;
  gate?: Promise<void>;
  handler?: () => void;
  subscribedBeforeFirstLoad?: boolean;

  async loadAll(): Promise<EnforceablePolicy[]> {
    this.loads += 1;
    const snapshot = [...this.rows];
    if (this.gate) await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database unavailable');
    }
    return snapshot;
  }

  async onChanged(handler: () => void): Promise<unknown> {
    this.subscribedBeforeFirstLoad = this.loads === 0;
    this.handler = handler;
    return () => undefined;
  }
}

const client = { clientId: 'c1', isFirstParty: true };

/** A source that can tell whether its rows changed. */
class FingerprintedSource extends FakeSource {
  override async fingerprint(): Promise<string> {
    return this.rows.map((row) => `${row.id}:${JSON.stringify(row.configuration)}`).join(',');
  }
}

describe('EnforcementPolicyCache backstop reload', () => {
  it('skips the reload while the fingerprint is unchanged and reloads when it moves', async () => {
    const source = new FingerprintedSource();
    source.rows = [policy('rlp_a', 'default')];
    const cache = new EnforcementPolicyCache(source, { limiterTimeoutMs: 100, reloadIntervalSeconds: 0 });
    await cache.onApplicationBootstrap();
    try {
      expect(source.loads).toBe(1);
      await cache.refreshIfChanged();
      await cache.refreshIfChanged();
      expect(source.loads).toBe(1);
      source.rows = [policy('rlp_b', 'third_party_clients')];
      await cache.refreshIfChanged();
      expect(source.loads).toBe(2);
      expect(cache.current().resolve(client)).toBeUndefined();
      expect(cache.current().resolve({ clientId: 'c2', isFirstParty: false })?.policy.id).toBe('rlp_b');
    } finally {
      cache.onApplicationShutdown();
    }
  });

  it('always reloads when the source has no fingerprint', async () => {
    const source = new FakeSource();
    const cache = new EnforcementPolicyCache(source, { limiterTimeoutMs: 100, reloadIntervalSeconds: 0 });
    await cache.onApplicationBootstrap();
    try {
      await cache.refreshIfChanged();
      expect(source.loads).toBe(2);
    } finally {
      cache.onApplicationShutdown();
    }
  });
});

describe('EnforcementPolicyCache', () => {
  let source: FakeSource;
  let cache: EnforcementPolicyCache;

  beforeEach(async () => {
    source = new FakeSource();
    source.rows = [policy('rlp_a', 'default')];
    cache = new EnforcementPolicyCache(source, { limiterTimeoutMs: 100, reloadIntervalSeconds: 0 });
    await cache.onApplicationBootstrap();
  });
  afterEach(() => cache.onApplicationShutdown());

  it('subscribes before its first load and serves the loaded policies', () => {
    expect(source.subscribedBeforeFirstLoad).toBe(true);
    expect(cache.current().resolve(client)?.policy.id).toBe('rlp_a');
  });

  it('reloads when a change is announced, without touching the source per lookup', async () => {
    for (let i = 0; i < 100; i += 1) cache.current().resolve(client);
    expect(source.loads).toBe(1);
    source.rows = [policy('rlp_b', 'client_id:c1')];
    source.handler?.();
    await cache.refresh();
    expect(cache.current().resolve(client)?.policy.id).toBe('rlp_b');
  });

  it('loads once more when a change arrives during a load, so the last change wins', async () => {
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    source.rows = [policy('rlp_first', 'default')];
    const first = cache.refresh();
    source.rows = [policy('rlp_second', 'default')];
    source.handler?.();
    source.gate = undefined;
    open();
    await first;
    expect(cache.current().resolve(client)?.policy.id).toBe('rlp_second');
    expect(source.loads).toBe(3);
  });

  it('keeps the previous policies when a reload fails, logs it and retries', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    source.failNext = true;
    source.rows = [];
    await cache.refresh();
    expect(cache.current().resolve(client)?.policy.id).toBe('rlp_a');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
    // The retry a second later picks up the table as it now is.
    await waitFor(() => cache.loadCount >= 2, { what: 'the retried load' });
    expect(cache.current().resolve(client)).toBeUndefined();
  });
});
