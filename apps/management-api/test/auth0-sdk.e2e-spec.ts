import { ManagementApiError, ManagementClient } from 'auth0';
import { AcmeManagementClient, RateLimitPolicy } from './auth0-rate-limit-policies';
import { BOOTSTRAP, ManagementApp, startManagement } from './support';

/** The official `auth0` package always calls https://{domain}; its `fetch` option routes it to the test server. */
describe('the official auth0 ManagementClient against this service', () => {
  let app: ManagementApp;
  let management: AcmeManagementClient;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await startManagement();
    const routed = (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
      seen.push(url);
      return fetch(url.replace(/^https:\/\/tenant\.test/, app.url), init);
    };
    management = new AcmeManagementClient({
      domain: 'tenant.test',
      clientId: BOOTSTRAP.clientId,
      clientSecret: BOOTSTRAP.clientSecret,
      fetch: routed as typeof fetch,
      retry: { enabled: false },
    });
  });
  afterAll(async () => app?.close());

  it('gets its token from /oauth/token with client credentials', async () => {
    const { data } = await management.clients.getAll();
    expect(data.map((c) => c.client_id)).toContain(BOOTSTRAP.clientId);
    expect(seen).toContain('https://tenant.test/oauth/token');
  });

  it('creates, lists page by page, gets, updates and deletes rate-limit policies', async () => {
    const created: RateLimitPolicy[] = [];
    for (let i = 0; i < 7; i += 1) {
      const { data, status } = await management.rateLimitPolicies.create({
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: `client_id:sdk-${i}`,
        configuration: { action: 'block', limit: i },
      });
      expect(status).toBe(201);
      created.push(data);
    }
    const pages: RateLimitPolicy[][] = [];
    for await (const page of management.rateLimitPolicies.iterate({ take: 3 })) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((p) => p.id)).toEqual(created.map((p) => p.id));

    const { data: one, headers } = await management.rateLimitPolicies.get(created[2].id);
    expect(one).toEqual(created[2]);
    expect(headers.get('x-ratelimit-limit')).toBe('100000');

    const { data: updated } = await management.rateLimitPolicies.update(created[2].id, {
      configuration: { action: 'redirect', limit: 2, redirect_uri: 'https://example.com/wait' },
    });
    expect(updated.configuration).toEqual({ action: 'redirect', limit: 2, redirect_uri: 'https://example.com/wait' });

    const deleted = await management.rateLimitPolicies.delete(created[2].id);
    expect(deleted.status).toBe(204);
    const error = await management.rateLimitPolicies.get(created[2].id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementApiError);
    expect(error).toMatchObject({ statusCode: 404, errorCode: 'inexistent_rate_limit_policy', error: 'Not Found' });
  });

  it('surfaces conflicts and validation failures as ManagementApiError with Auth0 fields', async () => {
    const body = {
      resource: 'oauth_authentication_api',
      consumer: 'client',
      consumer_selector: 'default',
      configuration: { action: 'allow' },
    };
    await management.rateLimitPolicies.create(body);
    await expect(management.rateLimitPolicies.create(body)).rejects.toMatchObject({
      statusCode: 409,
      errorCode: 'rate_limit_policy_conflict',
    });
    await expect(management.rateLimitPolicies.getAll({ take: 101 })).rejects.toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_query_string',
    });
  });

  it("manages clients and grants with the SDK's own managers, iterating clients page by page", async () => {
    for (let i = 0; i < 4; i += 1) await management.clients.create({ name: `sdk-client-${i}` });
    const collected: string[] = [];
    for (let page = 0; ; page += 1) {
      const { data } = await management.clients.getAll({ page, per_page: 2, include_totals: true });
      collected.push(...data.clients.map((c) => c.client_id));
      if (collected.length >= data.total) break;
    }
    expect(collected.length).toBe(5);
    expect(new Set(collected).size).toBe(5);

    const { data: client } = await management.clients.create({ name: 'sdk-reader' });
    expect(client.client_secret).toEqual(expect.any(String));
    const { data: grant } = await management.clientGrants.create({
      client_id: client.client_id!,
      audience: 'https://tenant.test/api/v2/',
      scope: ['read:rate_limit_policies'],
    });
    expect(grant).toMatchObject({ client_id: client.client_id, scope: ['read:rate_limit_policies'] });

    const reader = new ManagementClient({
      domain: 'tenant.test',
      clientId: client.client_id!,
      clientSecret: client.client_secret!,
      fetch: ((input: string, init?: RequestInit) =>
        fetch(String(input).replace(/^https:\/\/tenant\.test/, app.url), init)) as typeof fetch,
      retry: { enabled: false },
    });
    await expect(reader.clients.getAll()).rejects.toMatchObject({
      statusCode: 403,
      errorCode: 'insufficient_scope',
      message: 'Insufficient scope, expected any of: read:clients',
    });

    expect((await management.clients.get({ client_id: client.client_id! })).data.name).toBe('sdk-reader');
    await management.clients.delete({ client_id: client.client_id! });
    await expect(management.clients.get({ client_id: client.client_id! })).rejects.toMatchObject({ statusCode: 404 });
  });
});
