import { waitFor } from '@acme/platform-test-infra';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';
import { call, FourServices, OUTAGE_BOOTSTRAP, SourceService, startFourServices } from './support/source-service';

const ADMIN = 'pg-outage-admin-token-0123456789';
const admin = { authorization: `Bearer ${ADMIN}` };

const health = async (service: SourceService) => (await fetch(`${service.url}/health`)).status;
const probe = async (service: SourceService, path: 'live' | 'ready') =>
  (await fetch(`${service.url}/health/${path}`)).status;

/** A call that must answer within `ms` (an outage never holds a request). */
async function timed(ms: number, request: () => Promise<{ status: number; body: any; headers?: Headers }>) {
  const started = Date.now();
  const response = await request();
  return { ...response, elapsed: Date.now() - started, limit: ms };
}

/**
 * The four services on a PostgreSQL of their own that is stopped and started under them: while it is down every
 * data route answers 503 with Retry-After in its API's shape (never a 500, never hanging), the token endpoint
 * keeps issuing for clients it has cached, and all recover without a restart.
 */
describe('PostgreSQL stops mid-test', () => {
  let postgres: PrivatePostgres;
  let services: FourServices;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    services = await startFourServices({ DATABASE_URL: postgres.url, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' });
  }, 240_000);

  afterAll(async () => {
    await postgres?.start().catch(() => undefined);
    await Promise.all(Object.values(services ?? {}).map((service: SourceService) => service.stop()));
    await postgres?.remove();
  }, 120_000);

  it('answers 503 with Retry-After in each shape, keeps issuing cached tokens, and recovers', async () => {
    const { management, community, rum, migration } = services;
    const token = (id: string, secret: string) =>
      call(`${management.url}/oauth/token`, {
        body: {
          grant_type: 'client_credentials',
          client_id: id,
          client_secret: secret,
          audience: OUTAGE_BOOTSTRAP.audience,
        },
      });
    const bearer = {
      authorization: `Bearer ${(await token(OUTAGE_BOOTSTRAP.id, OUTAGE_BOOTSTRAP.secret)).body.access_token}`,
    };
    const project = (
      await call(`${community.url}/admin/v1/projects`, { body: { name: 'outage', bundles: [] }, headers: admin })
    ).body;
    const api = `${community.url}/api/v6/${project.id}/api/v7`;
    expect(
      (await call(`${api}/auth/sign-up`, { body: { email: 'pg@example.com', password: 'correct horse battery' } }))
        .status,
    ).toBe(201);
    const account = (await call(`${rum.url}/admin/v1/accounts`, { body: { name: 'outage' }, headers: admin })).body;
    const workspace = (await call(`${migration.url}/admin/v1/workspaces`, { body: { name: 'outage' }, headers: admin }))
      .body;
    const routes = {
      management: () => call(`${management.url}/api/v2/clients`, { headers: bearer }),
      community: () =>
        call(`${api}/auth/sign-in`, { body: { email: 'pg@example.com', password: 'correct horse battery' } }),
      rum: () =>
        call(`${rum.url}/rum/error-ingestion/rules/list?app_key=${account.app_key}`, { body: { application_id: 'x' } }),
      migration: () =>
        call(`${migration.url}/v2/organizations/documents/migrate/status`, {
          body: { data: { organizationId: 'org', migrationId: 'm' } },
          headers: { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken },
        }),
    };
    for (const request of Object.values(routes)) expect((await request()).status).toBeLessThan(500);
    const loadedAt = Date.now();
    expect((await token(OUTAGE_BOOTSTRAP.id, OUTAGE_BOOTSTRAP.secret)).status).toBe(200);

    await postgres.stop();
    const down = {
      management: await timed(6000, routes.management),
      community: await timed(6000, routes.community),
      rum: await timed(6000, routes.rum),
      migration: await timed(6000, routes.migration),
    };
    for (const [name, response] of Object.entries(down)) {
      expect({
        name,
        status: response.status,
        retryAfter: response.headers?.get('retry-after'),
        inTime: response.elapsed < response.limit,
      }).toEqual({ name, status: 503, retryAfter: '5', inTime: true });
    }
    expect(down.management.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: expect.any(String),
      errorCode: 'temporarily_unavailable',
    });
    expect(down.community.body).toEqual({ error: expect.any(String), code: 'server/unavailable' });
    expect(down.rum.body).toEqual({
      request_id: expect.any(String),
      error: { code: 'InternalError', message: 'An internal error was encountered and reported; retry later.' },
    });
    expect(down.migration.body).toEqual({ error: { status: 'UNAVAILABLE', message: expect.any(String) } });
    expect(await Promise.all(Object.values(services).map(health))).toEqual([503, 503, 503, 503]);
    // Readiness says the same; liveness does not: an outage must not restart every instance.
    expect(await Promise.all(Object.values(services).map((s) => probe(s, 'ready')))).toEqual([503, 503, 503, 503]);
    expect(await Promise.all(Object.values(services).map((s) => probe(s, 'live')))).toEqual([200, 200, 200, 200]);
    const unknown = await token('never-seen', 'whatever-secret');
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: expect.any(String) },
    });
    // Past the cache's reload age (10 s), the known client is still served from its last loaded entry.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, loadedAt + 11_000 - Date.now())));
    expect((await token(OUTAGE_BOOTSTRAP.id, OUTAGE_BOOTSTRAP.secret)).status).toBe(200);

    await postgres.start();
    await waitFor(
      async () => (await Promise.all(Object.values(services).map(health))).every((status) => status === 200),
      { timeoutMs: 30_000, what: 'every /health 200' },
    );
    for (const [name, request] of Object.entries(routes)) {
      const status = await waitFor(async () => ((await request()).status < 500 ? (await request()).status : 0), {
        timeoutMs: 15_000,
        what: `${name} recovered`,
      });
      expect(status).toBeLessThan(500);
    }
  }, 180_000);
});
