import { ManagementApp, startManagement } from './support';

type Policy = {
  id: string;
  resource: string;
  consumer: string;
  consumer_selector: string;
  configuration: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

const policy = (selector: string, configuration: Record<string, unknown> = { action: 'block', limit: 10 }) => ({
  resource: 'oauth_authentication_api',
  consumer: 'client',
  consumer_selector: selector,
  configuration,
});

describe('/api/v2/rate-limit-policies', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagement();
  });
  afterAll(async () => app?.close());

  const create = async (body: unknown) => app.api('/rate-limit-policies', { method: 'POST', body });
  const errorOf = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  });

  describe('create, get, patch, delete', () => {
    it('creates (201) with an Auth0-form id and exactly the spec fields, then gets, patches and deletes it', async () => {
      const created = await create(policy('client_id:lifecycle', { action: 'log', limit: 5 }));
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toContain('application/json');
      const body = (await created.json()) as Policy;
      expect(Object.keys(body).sort()).toEqual([
        'configuration',
        'consumer',
        'consumer_selector',
        'created_at',
        'id',
        'resource',
        'updated_at',
      ]);
      expect(body.id).toMatch(/^rlp_[A-Za-z0-9_-]{21}$/);
      expect(body).toMatchObject({
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: 'client_id:lifecycle',
        configuration: { action: 'log', limit: 5 },
      });

      const got = await app.api(`/rate-limit-policies/${body.id}`);
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(body);

      const patched = await app.api(`/rate-limit-policies/${body.id}`, {
        method: 'PATCH',
        body: { configuration: { action: 'allow' } },
      });
      expect(patched.status).toBe(200);
      const after = (await patched.json()) as Policy;
      expect(after.configuration).toEqual({ action: 'allow' });
      expect(after.created_at).toBe(body.created_at);
      expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(body.updated_at));

      const deleted = await app.api(`/rate-limit-policies/${body.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe('');
      expect((await app.api(`/rate-limit-policies/${body.id}`)).status).toBe(404);
      expect((await app.api(`/rate-limit-policies/${body.id}`, { method: 'DELETE' })).status).toBe(404);
    });

    it('deletes when a client sends Content-Type: application/json with no body (as most HTTP clients do)', async () => {
      const { id } = (await (await create(policy('client_id:bodiless-delete'))).json()) as Policy;
      const deleted = await app.api(`/rate-limit-policies/${id}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
      });
      expect(deleted.status).toBe(204);
      expect((await app.api(`/rate-limit-policies/${id}`)).status).toBe(404);
    });

    it.each([
      ['allow', { action: 'allow' }],
      ['block', { action: 'block', limit: 0 }],
      ['log', { action: 'log', limit: 10000 }],
      ['redirect', { action: 'redirect', limit: 1, redirect_uri: 'https://example.com/slow' }],
    ])('accepts the %s configuration shape', async (action, configuration) => {
      const response = await create(policy(`client_id:shape-${action}`, configuration));
      expect(response.status).toBe(201);
      expect(((await response.json()) as Policy).configuration).toEqual(configuration);
    });

    it.each([
      ['allow with a limit', { action: 'allow', limit: 1 }],
      ['block without a limit', { action: 'block' }],
      ['limit 10001', { action: 'block', limit: 10001 }],
      ['limit -1', { action: 'log', limit: -1 }],
      ['fractional limit', { action: 'log', limit: 1.5 }],
      ['string limit', { action: 'log', limit: '5' }],
      ['log with redirect_uri', { action: 'log', limit: 1, redirect_uri: 'https://x.test' }],
      ['redirect without uri', { action: 'redirect', limit: 1 }],
      ['redirect to http', { action: 'redirect', limit: 1, redirect_uri: 'http://example.com' }],
      ['redirect to a non-URI', { action: 'redirect', limit: 1, redirect_uri: 'https://' }],
      ['unknown action', { action: 'throttle', limit: 1 }],
      ['extra property', { action: 'block', limit: 1, burst: 2 }],
      ['array', [{ action: 'allow' }]],
      ['null', null],
    ])('rejects a configuration with %s (400 invalid_body)', async (_label, configuration) => {
      const { status, body } = await errorOf(
        await create(policy('client_id:bad-config', configuration as Record<string, unknown>)),
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', errorCode: 'invalid_body' });
      expect(String(body['message'])).toContain('configuration');
    });

    it.each([
      'client_id:abc123',
      'client_id:https://app.example.com/client-metadata.json',
      'cimd_clients',
      'third_party_clients',
      'default',
    ])('accepts the selector form %s', async (selector) => {
      const response = await create(policy(selector));
      expect(response.status).toBe(201);
      const listed = (await (
        await app.api(`/rate-limit-policies?consumer_selector=${encodeURIComponent(selector)}`)
      ).json()) as { rate_limit_policies: Policy[] };
      expect(listed.rate_limit_policies.map((p) => p.consumer_selector)).toEqual([selector]);
    });

    it.each(['client_id:', 'client_id:has space', 'client_id:http://insecure.test', 'everyone', 'CIMD_CLIENTS', ''])(
      'rejects the selector %j',
      async (selector) => {
        const { status, body } = await errorOf(await create(policy(selector)));
        expect(status).toBe(400);
        expect(body['errorCode']).toBe('invalid_body');
      },
    );

    it('bounds consumer_selector at 255 characters', async () => {
      const at = `client_id:${'a'.repeat(245)}`;
      expect(at).toHaveLength(255);
      expect((await create(policy(at))).status).toBe(201);
      const over = `client_id:${'a'.repeat(246)}`;
      expect((await create(policy(over))).status).toBe(400);
      expect((await app.api(`/rate-limit-policies?consumer_selector=${over}`)).status).toBe(400);
      expect((await app.api(`/rate-limit-policies?consumer_selector=${at}`)).status).toBe(200);
    });

    it('rejects a second policy for the same resource, consumer and selector (409)', async () => {
      expect((await create(policy('client_id:dup'))).status).toBe(201);
      const { status, body } = await errorOf(await create(policy('client_id:dup', { action: 'allow' })));
      expect(status).toBe(409);
      expect(body).toMatchObject({ statusCode: 409, error: 'Conflict', errorCode: 'rate_limit_policy_conflict' });
    });

    it.each([
      ['an unknown property', { ...policy('client_id:x1'), extra: 1 }],
      ['a missing resource', { consumer: 'client', consumer_selector: 'default', configuration: { action: 'allow' } }],
      ['another resource', { ...policy('client_id:x2'), resource: 'management_api' }],
      ['another consumer', { ...policy('client_id:x3'), consumer: 'user' }],
      ['an id', { ...policy('client_id:x4'), id: 'rlp_chosen' }],
    ])('rejects a body with %s (400 invalid_body)', async (_label, body) => {
      const response = await errorOf(await create(body));
      expect(response.status).toBe(400);
      expect(response.body['errorCode']).toBe('invalid_body');
    });

    it('patch accepts only configuration, and 404s an unknown id', async () => {
      const { id } = (await (await create(policy('client_id:patchme'))).json()) as Policy;
      const extra = await app.api(`/rate-limit-policies/${id}`, {
        method: 'PATCH',
        body: { configuration: { action: 'allow' }, consumer_selector: 'default' },
      });
      expect(extra.status).toBe(400);
      const missing = await app.api(`/rate-limit-policies/${id}`, { method: 'PATCH', body: {} });
      expect(missing.status).toBe(400);
      const unknown = await errorOf(
        await app.api('/rate-limit-policies/rlp_doesnotexist', {
          method: 'PATCH',
          body: { configuration: { action: 'allow' } },
        }),
      );
      expect(unknown).toMatchObject({
        status: 404,
        body: { statusCode: 404, error: 'Not Found', errorCode: 'inexistent_rate_limit_policy' },
      });
      const unchanged = (await (await app.api(`/rate-limit-policies/${id}`)).json()) as Policy;
      expect(unchanged.configuration).toEqual({ action: 'block', limit: 10 });
    });

    it('answers ids of 26 characters with 404 and of 27 with 400 invalid_uri, on every method', async () => {
      for (const method of ['GET', 'DELETE', 'PATCH']) {
        const body = method === 'PATCH' ? { configuration: { action: 'allow' } } : undefined;
        const at = await errorOf(await app.api(`/rate-limit-policies/${'a'.repeat(26)}`, { method, body }));
        expect(at).toMatchObject({ status: 404, body: { errorCode: 'inexistent_rate_limit_policy' } });
        const over = await errorOf(await app.api(`/rate-limit-policies/${'a'.repeat(27)}`, { method, body }));
        expect(over).toMatchObject({ status: 400, body: { errorCode: 'invalid_uri' } });
      }
    });
  });

  describe('list', () => {
    it('validates take (0 and 101 are 400; 1 and 100 are 200) and from (1000 ok, 1001 is 400)', async () => {
      for (const [take, status] of [
        ['0', 400],
        ['1', 200],
        ['100', 200],
        ['101', 400],
        ['abc', 400],
        ['1.5', 400],
        ['', 400],
      ] as const) {
        const response = await app.api(`/rate-limit-policies?take=${take}`);
        expect({ take, status: response.status }).toEqual({ take, status });
        if (status === 400)
          expect(((await response.json()) as Record<string, unknown>)['errorCode']).toBe('invalid_query_string');
      }
      const atLimit = await errorOf(await app.api(`/rate-limit-policies?from=${'A'.repeat(1000)}`));
      // 1000 characters pass the length bound; this one does not decode as a cursor, which is its own 400.
      expect(atLimit).toMatchObject({
        status: 400,
        body: { errorCode: 'invalid_query_string', message: 'from is not a valid pagination cursor' },
      });
      const over = await errorOf(await app.api(`/rate-limit-policies?from=${'A'.repeat(1001)}`));
      expect(over.status).toBe(400);
      expect(String(over.body['message'])).toMatch(/from must be shorter than or equal to 1000/);
    });

    it.each([
      ['an unknown parameter', 'page=1'],
      ['a bad resource', 'resource=other'],
      ['a bad consumer', 'consumer=user'],
      ['a bad selector', 'consumer_selector=nope'],
      ['a repeated take', 'take=1&take=2'],
      ['a cursor that does not decode', 'from=bm90LWEtY3Vyc29y'],
    ])('rejects %s with 400 invalid_query_string', async (_label, query) => {
      const { status, body } = await errorOf(await app.api(`/rate-limit-policies?${query}`));
      expect(status).toBe(400);
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', errorCode: 'invalid_query_string' });
    });

    it('filters by resource and consumer', async () => {
      const response = await app.api('/rate-limit-policies?resource=oauth_authentication_api&consumer=client&take=100');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { rate_limit_policies: Policy[] };
      expect(body.rate_limit_policies.length).toBeGreaterThan(0);
      expect(
        body.rate_limit_policies.every((p) => p.resource === 'oauth_authentication_api' && p.consumer === 'client'),
      ).toBe(true);
    });
  });
});
