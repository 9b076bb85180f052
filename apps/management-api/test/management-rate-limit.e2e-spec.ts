import { ManagementApp, startManagement, TOO_MANY_REQUESTS_TEXT } from './support';

describe("the management API's own rate limit", () => {
  let first: ManagementApp;
  let second: ManagementApp;
  beforeAll(async () => {
    // Refill is slow (1/s) so the bucket cannot refill noticeably on a loaded machine during the test.
    const env = { MANAGEMENT_RATE_LIMIT_PER_SECOND: '1', MANAGEMENT_RATE_LIMIT_BURST: '10' };
    first = await startManagement({ env });
    second = await startManagement({ env, shareWith: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const expectHeaders = (response: Response) => {
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1);
    expect(reset).toBeLessThan(Math.floor(Date.now() / 1000) + 60);
  };

  it('puts X-RateLimit-* on every /api/v2 response, errors included', async () => {
    const token = await first.token();
    const responses = [
      await first.api('/rate-limit-policies', { token }),
      await first.api('/rate-limit-policies/rlp_missing', { token }),
      await first.api('/rate-limit-policies?take=0', { token }),
      await first.api('/no-such-route', { token }),
      await fetch(`${first.url}/api/v2/rate-limit-policies`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 400, 404, 401]);
    responses.forEach(expectHeaders);
  });

  it('refuses with 429 once the per-client bucket is empty, shared by both instances, and not other clients', async () => {
    const created = (await (await first.api('/clients', { method: 'POST', body: { name: 'busy' } })).json()) as {
      client_id: string;
      client_secret: string;
    };
    await first.api('/client-grants', {
      method: 'POST',
      body: {
        client_id: created.client_id,
        audience: 'https://tenant.test/api/v2/',
        scope: ['read:rate_limit_policies'],
      },
    });
    const token = await first.token(undefined, { clientId: created.client_id, clientSecret: created.client_secret });
    // 30 requests at once, alternating instances: one shared bucket of 10 lets ~10 through (plus the few
    // tokens refilled while they run); a bucket per instance would let 20 through.
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).api('/rate-limit-policies', { token })),
    );
    const statuses = responses.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(10);
    expect(accepted).toBeLessThan(20);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const refused = responses.find((r) => r.status === 429);
    expect(refused).toBeDefined();
    await Promise.all(responses.filter((r) => r !== refused).map((r) => r.text()));
    expect(await refused!.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: TOO_MANY_REQUESTS_TEXT,
      errorCode: 'too_many_requests',
    });
    expectHeaders(refused!);
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // The bootstrap client has its own bucket.
    expect((await second.api('/rate-limit-policies')).status).toBe(200);
  });
});

describe("the management API's own rate limit, by default", () => {
  let app: ManagementApp;
  beforeAll(async () => {
    // The test support raises the limit for every other file; unset here, so the built-in default applies.
    app = await startManagement({ env: { MANAGEMENT_RATE_LIMIT_PER_SECOND: undefined as unknown as string } });
  });
  afterAll(async () => app?.close());

  it('is 50 requests per second per client, bursting to 50', async () => {
    const token = await app.token();
    const response = await app.api('/rate-limit-policies', { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('50');
    const statuses = await Promise.all(
      Array.from({ length: 120 }, async () => (await app.api('/rate-limit-policies', { token })).status),
    );
    // 121 requests against a burst of 50 refilling at 50/s: at least 20 are refused unless they took over a second.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10);
  });
});
