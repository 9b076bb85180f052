import { MigrationQueue } from '@acme/document-migration';
import { TestApp } from '@acme/platform-testing';
import { ADMIN_TOKEN, client, Credentials, makeDocuments, operator, startMigrationApp, waitForStatus } from './support';

/** MIGRATION_ROLE: an api-only instance runs no job; a worker-only instance serves only /health and /metrics. */
describe('MIGRATION_ROLE api and worker on one database and queue', () => {
  let apiApp: TestApp;
  let workerApp: TestApp | undefined;
  let acme: Credentials;

  beforeAll(async () => {
    apiApp = await startMigrationApp({ MIGRATION_ROLE: 'api', MIGRATION_SLICE_SIZE: '10', MIGRATION_BATCH_SIZE: '4' });
    const ops = operator(apiApp);
    acme = await ops.workspace();
    await ops.organization(acme.workspaceId, 'src');
    await ops.organization(acme.workspaceId, 'dst');
    await ops.importDocuments(acme.workspaceId, 'src', makeDocuments('s', 45, 2));
  });
  afterAll(async () => {
    await workerApp?.close();
    await apiApp?.close();
  });

  it('keeps a migration pending with its jobs queued until a worker runs, and recovers jobs Redis lost', async () => {
    const api = client(apiApp, acme);
    const started = await api.start({ organizationId: 'src', targetOrganizationId: 'dst' });
    const { migrationId } = started.body.result.data;
    const queue = apiApp.app.get(MigrationQueue).queue;
    const counts = await queue.getJobCounts('wait', 'active');
    expect(counts['wait']).toBe(5);
    expect((await api.status('src', migrationId)).body.result.data.status).toBe('pending');

    // Redis loses everything: Postgres still says which slices are open, and the worker's reconciler re-enqueues them.
    await queue.obliterate({ force: true });
    workerApp = await startMigrationApp(
      { MIGRATION_ROLE: 'worker', MIGRATION_SLICE_SIZE: '10', MIGRATION_BATCH_SIZE: '4' },
      { database: apiApp.database, redisPrefix: apiApp.redisPrefix },
    );
    expect(await waitForStatus(api, 'dst', migrationId, 'completed')).toMatchObject({
      totalDocuments: 45,
      migratedDocuments: 45,
    });
    expect(await operator(apiApp).stats(acme.workspaceId, 'dst')).toEqual({ documents: 45, records: 90 });
  });

  it('serves only /health and /metrics from a worker-only instance', async () => {
    const url = workerApp!.url;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/migration_documents_moved_total 45/);
    const publicRoute = await fetch(`${url}/v2/organizations/documents/migrate/status`, { method: 'POST' });
    expect(publicRoute.status).toBe(404);
    expect(
      (
        await fetch(`${url}/admin/v1/workspaces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`${url}/admin/v1/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status,
    ).toBe(404);
  });
});

describe('per-workspace rate limit on the public API', () => {
  let app: TestApp;
  afterAll(async () => app?.close());

  it('answers RESOURCE_EXHAUSTED with Retry-After past the burst, per workspace', async () => {
    app = await startMigrationApp({ MIGRATION_ROLE: 'api', MIGRATION_RATE_LIMIT_PER_SECOND: '1' });
    const ops = operator(app);
    const [first, second] = [await ops.workspace('one'), await ops.workspace('two')];
    await ops.organization(first.workspaceId, 'o');
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${app.url}/v2/organizations/documents/migrate/status`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-api-key': first.apiKey,
          'x-service-auth-token': first.authToken,
        },
        body: JSON.stringify({ data: { organizationId: 'o', migrationId: 'none' } }),
      });
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    // Burst of 2, refilled at 1/s: a slow machine may earn one more token, never four.
    expect(statuses.slice(0, 2)).toEqual([404, 404]);
    expect(statuses).toContain(429);
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused?.json()).toEqual({ error: { message: expect.any(String), status: 'RESOURCE_EXHAUSTED' } });
    expect((await client(app, second).status('o', 'none')).status).toBe(404);
  });
});
