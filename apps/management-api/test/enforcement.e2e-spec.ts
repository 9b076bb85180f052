import { ClientGrantService, ClientService } from '@acme/oauth';
import { EnforcementPolicyCache, PolicyConfiguration } from '@acme/policies';
import { waitFor } from '@acme/platform-testing';
import { AUDIENCE, ManagementApp, startManagement } from './support';

/** Two instances of the service on one database and one Redis prefix. */
describe('rate-limit policy enforcement on POST /oauth/token (two instances)', () => {
  let a: ManagementApp;
  let b: ManagementApp;
  let created: string[] = [];
  let sequence = 0;

  beforeAll(async () => {
    a = await startManagement();
    b = await startManagement({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  afterEach(async () => {
    for (const id of created)
      expect((await a.api(`/rate-limit-policies/${id}`, { method: 'DELETE' })).status).toBe(204);
    created = [];
    await settle(0);
  });

  interface TestClient {
    clientId: string;
    clientSecret: string;
  }

  async function newClient(options: { uri?: boolean; isFirstParty?: boolean } = {}): Promise<TestClient> {
    sequence += 1;
    const clientId = options.uri ? `https://app${sequence}.example.com/oauth/client-metadata.json` : undefined;
    const { client, clientSecret } = await a.app
      .get(ClientService)
      .create({ name: `enforced ${sequence}`, clientId, isFirstParty: options.isFirstParty ?? true });
    await a.app
      .get(ClientGrantService)
      .create({ clientId: client.clientId, audience: AUDIENCE, scope: ['read:rate_limit_policies'] });
    return { clientId: client.clientId, clientSecret };
  }

  /** Waits until both instances' caches hold `count` policies (used only to line up the next step). */
  const settle = (count: number) =>
    waitFor(() => [a, b].every((instance) => instance.app.get(EnforcementPolicyCache).current().size === count), {
      what: `${count} cached policies`,
    });

  async function policy(consumerSelector: string, configuration: PolicyConfiguration): Promise<string> {
    const response = await a.api('/rate-limit-policies', {
      method: 'POST',
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: consumerSelector,
        configuration,
      },
    });
    expect(response.status).toBe(201);
    const id = ((await response.json()) as { id: string }).id;
    created.push(id);
    return id;
  }

  async function policies(...list: Array<[string, PolicyConfiguration]>): Promise<string[]> {
    const ids = [];
    for (const [selector, configuration] of list) ids.push(await policy(selector, configuration));
    await settle(created.length);
    return ids;
  }

  const token = (instance: ManagementApp, client: TestClient) =>
    fetch(`${instance.url}/oauth/token`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        audience: AUDIENCE,
      }),
    });

  /** `count` concurrent requests, alternating instances (and clients); the elapsed time bounds the refill. */
  async function burst(clients: TestClient[], count: number) {
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: count }, (_, i) => token(i % 2 ? b : a, clients[i % clients.length])),
    );
    const seconds = (performance.now() - started) / 1000;
    const statuses = responses.map((r) => r.status);
    return { responses, seconds, ok: statuses.filter((s) => s === 200).length, statuses };
  }

  /** The bucket starts full (burst = limit) and refills `limit` per second. */
  const expectAccepted = (accepted: number, limit: number, seconds: number) => {
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(limit + Math.ceil(seconds * limit));
  };

  async function expectTooManyRequests(response: Response, limit: number) {
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({
      error: 'too_many_requests',
      error_description: expect.stringContaining('Too many requests'),
    });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1);
  }

  it('does not limit a client when no policy applies', async () => {
    const client = await newClient();
    const { statuses, responses } = await burst([client], 30);
    expect(statuses).toEqual(Array(30).fill(200));
    expect(responses[0].headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('blocks a generated client id past its limit, counted across both instances, with OAuth 429 and headers', async () => {
    const [limited, other] = [await newClient(), await newClient()];
    await policies([`client_id:${limited.clientId}`, { action: 'block', limit: 3 }]);
    const { responses, seconds, ok } = await burst([limited], 12);
    expectAccepted(ok, 3, seconds);
    for (const response of responses.filter((r) => r.status !== 200)) await expectTooManyRequests(response, 3);
    expect(responses.find((r) => r.status === 200)?.headers.get('x-ratelimit-limit')).toBe('3');
    expect((await burst([other], 6)).ok).toBe(6);
  });

  it('matches a URI client id exactly before cimd_clients, and limit 0 blocks every request', async () => {
    const [exact, otherCimd] = [await newClient({ uri: true }), await newClient({ uri: true })];
    await policies(
      [`client_id:${exact.clientId}`, { action: 'block', limit: 0 }],
      ['cimd_clients', { action: 'allow' }],
    );
    const blocked = await burst([exact], 6);
    expect(blocked.ok).toBe(0);
    for (const response of blocked.responses) await expectTooManyRequests(response, 0);
    expect((await burst([otherCimd], 6)).ok).toBe(6);
  });

  it('pools every CIMD client in one cimd_clients bucket, ahead of third_party_clients', async () => {
    const cimd = [
      await newClient({ uri: true, isFirstParty: false }),
      await newClient({ uri: true, isFirstParty: true }),
    ];
    const plain = await newClient();
    await policies(
      ['cimd_clients', { action: 'block', limit: 4 }],
      ['third_party_clients', { action: 'block', limit: 0 }],
    );
    const { ok, seconds, responses } = await burst(cimd, 16);
    expectAccepted(ok, 4, seconds);
    expect(
      responses
        .map((r) => r.status)
        .filter((s) => s !== 200)
        .every((s) => s === 429),
    ).toBe(true);
    expect((await burst([plain], 5)).ok).toBe(5);
  });

  it('pools third-party clients in one bucket, while default gives each other client its own', async () => {
    const thirdParty = [await newClient({ isFirstParty: false }), await newClient({ isFirstParty: false })];
    const firstParty = [await newClient(), await newClient()];
    await policies(['third_party_clients', { action: 'block', limit: 3 }], ['default', { action: 'block', limit: 2 }]);
    const pooled = await burst(thirdParty, 12);
    expectAccepted(pooled.ok, 3, pooled.seconds);
    for (const client of firstParty) {
      const own = await burst([client], 8);
      expectAccepted(own.ok, 2, own.seconds);
      for (const response of own.responses.filter((r) => r.status !== 200)) await expectTooManyRequests(response, 2);
    }
  });

  it('never limits an allowed client, even when default blocks everyone else', async () => {
    const [vip, everyoneElse] = [await newClient({ isFirstParty: false }), await newClient()];
    await policies(
      [`client_id:${vip.clientId}`, { action: 'allow' }],
      ['default', { action: 'block', limit: 0 }],
      ['third_party_clients', { action: 'block', limit: 0 }],
    );
    expect((await burst([vip], 25)).ok).toBe(25);
    expect((await burst([everyoneElse], 3)).ok).toBe(0);
  });

  it('rejects an unknown client before any policy applies', async () => {
    await policies(['default', { action: 'block', limit: 0 }]);
    const response = await token(b, { clientId: 'no-such-client', clientSecret: 'whatever-secret-value' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('lets a log policy excess through and counts it by policy on /metrics', async () => {
    const client = await newClient();
    const [id] = await policies([`client_id:${client.clientId}`, { action: 'log', limit: 2 }]);
    const { ok, seconds } = await burst([client], 12);
    expect(ok).toBe(12);
    let excess = 0;
    for (const instance of [a, b]) {
      const metrics = await (await fetch(`${instance.url}/metrics`)).text();
      const line = metrics
        .split('\n')
        .find((l) => l.startsWith('oauth_rate_limit_policy_excess_total') && l.includes(`policy_id="${id}"`));
      excess += line ? Number(line.split(' ').pop()) : 0;
    }
    expect(excess).toBeLessThanOrEqual(12 - 2);
    expect(excess).toBeGreaterThanOrEqual(12 - 2 - Math.ceil(seconds * 2));
  });

  it('redirects past the limit of a redirect policy', async () => {
    const client = await newClient();
    const uri = 'https://status.example.com/slow-down';
    await policies([`client_id:${client.clientId}`, { action: 'redirect', limit: 2, redirect_uri: uri }]);
    const { responses, ok, seconds } = await burst([client], 10);
    expectAccepted(ok, 2, seconds);
    const redirected = responses.filter((r) => r.status !== 200);
    expect(redirected.length).toBeGreaterThan(0);
    for (const response of redirected) {
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(uri);
    }
  });

  it('applies a policy created, patched and deleted on one instance on the other within one second', async () => {
    const client = await newClient();
    expect((await token(b, client)).status).toBe(200);
    const governing = () =>
      b.app.get(EnforcementPolicyCache).current().resolve({ clientId: client.clientId, isFirstParty: true })?.policy
        .configuration.action ?? 'none';
    // Timed on the other instance's decision input (in memory, so a slow request on a busy machine does not
    // count against the second), then confirmed by what its token endpoint answers.
    const within = async (action: string, status: number, what: string) => {
      const sentAt = performance.now();
      await waitFor(() => governing() === action, { timeoutMs: 1000, intervalMs: 5, what });
      expect(performance.now() - sentAt).toBeLessThan(1000);
      expect((await token(b, client)).status).toBe(status);
    };

    const id = await policy(`client_id:${client.clientId}`, { action: 'block', limit: 0 });
    await within('block', 429, 'the created block policy on the other instance');

    const patched = await a.api(`/rate-limit-policies/${id}`, {
      method: 'PATCH',
      body: { configuration: { action: 'allow' } },
    });
    expect(patched.status).toBe(200);
    await within('allow', 200, 'the patched (allow) policy on the other instance');

    expect(
      (
        await a.api(`/rate-limit-policies/${id}`, {
          method: 'PATCH',
          body: { configuration: { action: 'block', limit: 0 } },
        })
      ).status,
    ).toBe(200);
    await within('block', 429, 'the re-patched block policy on the other instance');

    expect((await a.api(`/rate-limit-policies/${id}`, { method: 'DELETE' })).status).toBe(204);
    created = [];
    await within('none', 200, 'the deletion on the other instance');
  });
});
