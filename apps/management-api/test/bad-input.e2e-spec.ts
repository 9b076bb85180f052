import { encodeHostile, hostileText } from '@acme/platform-testing';
import fc from 'fast-check';
import { Client } from 'pg';
import { AUDIENCE, BOOTSTRAP, ManagementApp, startManagement } from './support';

/** Property-based malformed requests: each must get a 4xx in the route's error shape, never a 500 or a write. */
describe('malformed requests (fast-check)', () => {
  let app: ManagementApp;
  let db: Client;
  let policyId: string;
  const runs = { numRuns: 60 };

  beforeAll(async () => {
    app = await startManagement();
    db = new Client({ connectionString: app.database.url });
    await db.connect();
    const created = await app.api('/rate-limit-policies', {
      method: 'POST',
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: 'default',
        configuration: { action: 'block', limit: 3 },
      },
    });
    policyId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  const BOOTSTRAP_TOKEN = { value: '' };
  const snapshot = async () =>
    JSON.stringify((await db.query('SELECT * FROM management.rate_limit_policies ORDER BY id')).rows);
  const expectAuth0 = async (response: Response, errorCodes: string[]) => {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'errorCode', 'message', 'statusCode']);
    expect(body['statusCode']).toBe(response.status);
    expect(errorCodes).toContain(body['errorCode']);
  };

  const badTake = fc.oneof(
    fc.integer({ min: -1000, max: 0 }).map(String),
    fc.integer({ min: 101, max: 1e9 }).map(String),
    hostileText().filter((s) => !/^\d+$/.test(s)),
    fc.double({ noInteger: true, noNaN: true }).map(String),
  );
  const badSelector = fc
    .string({ maxLength: 300 })
    .filter(
      (s) =>
        !/^(default|cimd_clients|third_party_clients|client_id:[A-Za-z0-9._~-]+)$/.test(s) &&
        !s.startsWith('client_id:https://'),
    );
  const badQuery = fc.oneof(
    badTake.map((take) => `take=${encodeHostile(take)}`),
    fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((s) => !/[=]/.test(s))
      .map((s) => `from=${encodeHostile(s)}x!`),
    fc.string({ minLength: 1001, maxLength: 1200 }).map((s) => `from=${encodeHostile(s)}`),
    badSelector.map((s) => `consumer_selector=${encodeHostile(s)}`),
    hostileText()
      .filter((s) => s !== 'oauth_authentication_api')
      .map((s) => `resource=${encodeHostile(s)}`),
    hostileText()
      .filter((s) => s !== 'client')
      .map((s) => `consumer=${encodeHostile(s)}`),
    fc
      .stringMatching(/^[a-z_]{1,12}$/)
      .filter((k) => !['resource', 'consumer', 'consumer_selector', 'take', 'from'].includes(k))
      .map((k) => `${k}=1`),
    fc.constantFrom('take[]=1', 'take[a]=1', 'resource[]=oauth_authentication_api', 'take=1&take=2', 'from=%00'),
  );

  it('GET /rate-limit-policies: malformed query strings are 400 invalid_query_string', async () => {
    await fc.assert(
      fc.asyncProperty(badQuery, async (query) => {
        const response = await app.api(`/rate-limit-policies?${query}`);
        expect(response.status).toBe(400);
        await expectAuth0(response, ['invalid_query_string']);
      }),
      runs,
    );
  });

  const validConfiguration = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    return record['action'] === 'allow' && Object.keys(record).length === 1;
  };
  const badConfiguration = fc
    .oneof(
      fc.anything(),
      fc.record({
        action: fc.constantFrom('block', 'log', 'redirect'),
        limit: fc.oneof(
          fc.integer({ min: 10001 }),
          fc.integer({ max: -1 }),
          fc.double({ noInteger: true }),
          hostileText(),
        ),
      }),
      fc.record({
        action: fc.constant('redirect'),
        limit: fc.integer({ min: 0, max: 10 }),
        redirect_uri: fc.oneof(
          fc.webUrl().filter((u) => !u.startsWith('https://')),
          hostileText(),
        ),
      }),
      fc.record({ action: fc.constant('allow'), limit: fc.integer() }),
    )
    .filter((c) => !validConfiguration(c));
  const badBody = fc.oneof(
    fc.anything().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
    fc.record({
      resource: fc.constant('oauth_authentication_api'),
      consumer: fc.constant('client'),
      consumer_selector: fc.constant('client_id:fc'),
      configuration: badConfiguration,
    }),
    fc
      .record({
        resource: hostileText(),
        consumer: fc.constant('client'),
        consumer_selector: fc.constant('default'),
        configuration: fc.constant({ action: 'allow' }),
      })
      .filter((b) => b.resource !== 'oauth_authentication_api'),
    fc.record({
      resource: fc.constant('oauth_authentication_api'),
      consumer: fc.constant('client'),
      consumer_selector: badSelector,
      configuration: fc.constant({ action: 'allow' }),
    }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.anything(), { maxKeys: 6 }),
  );

  it('POST /rate-limit-policies: malformed bodies are 400 invalid_body and write nothing', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(badBody, async (body) => {
        const response = await app.api('/rate-limit-policies', {
          method: 'POST',
          body: JSON.stringify(body) ?? 'undefined',
        });
        expect(response.status).toBe(400);
        await expectAuth0(response, ['invalid_body']);
      }),
      runs,
    );
    expect(await snapshot()).toBe(before);
  });

  it('POST /rate-limit-policies: raw garbage that is not JSON is 400 and writes nothing', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }).filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        }),
        async (raw) => {
          const response = await app.api('/rate-limit-policies', { method: 'POST', body: raw });
          await expectAuth0(response, ['invalid_body']);
        },
      ),
      { numRuns: 30 },
    );
    expect(await snapshot()).toBe(before);
  });

  it('PATCH /rate-limit-policies/{id}: malformed bodies are 400 and leave the policy unchanged', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          badConfiguration.map((configuration) => ({ configuration })),
          fc.dictionary(
            fc.string({ maxLength: 8 }).filter((k) => k !== 'configuration'),
            fc.anything(),
            { minKeys: 1, maxKeys: 4 },
          ),
        ),
        async (body) => {
          const response = await app.api(`/rate-limit-policies/${policyId}`, {
            method: 'PATCH',
            body: JSON.stringify(body),
          });
          expect(response.status).toBe(400);
          await expectAuth0(response, ['invalid_body']);
        },
      ),
      runs,
    );
    expect(await snapshot()).toBe(before);
  });

  it('path ids: any id is 404 (up to 26 characters) or 400 (longer), never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 60 }).filter((id) => !/^\.+$/.test(id)),
        fc.constantFrom('GET', 'DELETE'),
        async (id, method) => {
          const response = await app.api(`/rate-limit-policies/${encodeHostile(id)}`, { method });
          if (id.length > 26) {
            expect(response.status).toBe(400);
            await expectAuth0(response, ['invalid_uri']);
          } else {
            expect([404]).toContain(response.status);
            await expectAuth0(response, ['inexistent_rate_limit_policy', 'not_found']);
          }
        },
      ),
      runs,
    );
    expect((await app.api(`/rate-limit-policies/${policyId}`)).status).toBe(200);
  });

  it('path ids of any length up to what Node accepts, and broken percent-escapes, are 400 invalid_uri', async () => {
    for (const length of [27, 150, 3000, 12000]) {
      const response = await app.api(`/rate-limit-policies/${'a'.repeat(length)}`);
      await expectAuth0(response, ['invalid_uri']);
    }
    for (const id of ['%zz', '%', 'a%G1', '%E0%A4%A']) {
      const response = await app.api(`/rate-limit-policies/${id}`);
      expect(response.status).toBe(400);
      await expectAuth0(response, ['invalid_uri']);
    }
  });

  it('a body over 1 MB is 413 payload_too_large, a media type without a parser 415, both in the Auth0 body', async () => {
    const before = await snapshot();
    const post = (body: string, type: string) =>
      fetch(`${app.url}/api/v2/rate-limit-policies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN.value}`, 'content-type': type },
        body,
      });
    BOOTSTRAP_TOKEN.value = await app.token();
    const large = await post(JSON.stringify({ resource: 'x'.repeat(2_000_000) }), 'application/json');
    expect(large.status).toBe(413);
    await expectAuth0(large, ['payload_too_large']);
    const xml = await post('<policy/>', 'application/xml');
    expect(xml.status).toBe(415);
    await expectAuth0(xml, ['unsupported_media_type']);
    expect(await snapshot()).toBe(before);
  });

  it('Authorization headers that are not a valid token are 401', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string().map((s) => `Bearer ${s}`),
          fc.string(),
          fc.base64String().map((s) => `Bearer ${s}.${s}.${s}`),
        ),
        async (header) => {
          const safe = header.replace(/[^\x20-\x7e]/g, '');
          const response = await fetch(`${app.url}/api/v2/rate-limit-policies`, { headers: { authorization: safe } });
          expect(response.status).toBe(401);
          await expectAuth0(response, ['invalid_token', 'invalid_signature']);
        },
      ),
      runs,
    );
  });

  it('POST /clients and /client-grants: malformed bodies are 400 and create nothing', async () => {
    const count = async () =>
      Number(
        (
          await db.query(
            'SELECT (SELECT count(*) FROM management.clients) + (SELECT count(*) FROM management.client_grants) AS n',
          )
        ).rows[0].n,
      );
    const before = await count();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/clients', '/client-grants'),
        fc.oneof(
          fc.anything(),
          fc.record({ name: fc.oneof(fc.constant(''), fc.string({ minLength: 256, maxLength: 300 }), fc.integer()) }),
          fc.record({ name: fc.constant('x'), grant_types: fc.array(hostileText(), { minLength: 1 }) }),
          fc.record({
            client_id: fc.constant(BOOTSTRAP.clientId),
            audience: fc.constant(AUDIENCE),
            scope: fc.oneof(
              hostileText(),
              fc.array(
                fc.string({ minLength: 1 }).filter((s) => !s.includes(':')),
                { minLength: 1 },
              ),
            ),
          }),
        ),
        async (path, body) => {
          const response = await app.api(path, { method: 'POST', body: JSON.stringify(body) ?? 'null' });
          expect(response.status).toBe(400);
          await expectAuth0(response, ['invalid_body']);
        },
      ),
      runs,
    );
    expect(await count()).toBe(before);
  });

  it('POST /oauth/token: malformed requests get an OAuth error body, never a token or a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(hostileText(), fc.integer(), fc.constant(null))),
          fc.record({
            grant_type: hostileText().filter((g) => g !== 'client_credentials'),
            client_id: fc.constant(BOOTSTRAP.clientId),
            client_secret: fc.constant(BOOTSTRAP.clientSecret),
            audience: fc.constant(AUDIENCE),
          }),
          fc.record({
            grant_type: fc.constant('client_credentials'),
            client_id: hostileText(),
            client_secret: hostileText(),
            audience: fc.constant(AUDIENCE),
          }),
          fc.record({
            grant_type: fc.constant('client_credentials'),
            client_id: fc.constant(BOOTSTRAP.clientId),
            client_secret: fc.constant(BOOTSTRAP.clientSecret),
            audience: hostileText(),
          }),
        ),
        fc.boolean(),
        async (body, asForm) => {
          const response = await fetch(`${app.url}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': asForm ? 'application/x-www-form-urlencoded' : 'application/json' },
            body: asForm
              ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
              : JSON.stringify(body),
          });
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          const payload = (await response.json()) as Record<string, unknown>;
          expect(Object.keys(payload).sort()).toEqual(['error', 'error_description']);
        },
      ),
      runs,
    );
  });
});
