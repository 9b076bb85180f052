import { TestApp, waitFor } from '@acme/platform-testing';
import { client, Credentials, makeDocuments, operator, startMigrationApp } from './support';

describe('document migration API', () => {
  let app: TestApp;
  let ops: ReturnType<typeof operator>;
  let acme: Credentials;

  beforeAll(async () => {
    app = await startMigrationApp({ MIGRATION_BATCH_SIZE: '7', MIGRATION_SLICE_SIZE: '20' });
    ops = operator(app);
    acme = await ops.workspace('acme');
    for (const org of ['org-a', 'org-b', 'org-c']) await ops.organization(acme.workspaceId, org);
  });
  afterAll(async () => app?.close());

  it('moves every document of an organization with its records and reports completed with progress', async () => {
    expect((await ops.importDocuments(acme.workspaceId, 'org-a', makeDocuments('a', 50, 3))).body).toEqual({ documents: 50, records: 150 });
    const api = client(app, acme);
    const started = await api.start({ organizationId: 'org-a', targetOrganizationId: 'org-b' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ result: { status: 'success', message: expect.any(String), data: { migrationId: expect.any(String), status: 'pending' } } });
    const { migrationId } = started.body.result.data;
    const done = await waitFor(async () => {
      const response = await api.status('org-b', migrationId);
      return response.body.result.data.status === 'completed' ? response : undefined;
    }, { timeoutMs: 30000, what: 'completed' });
    expect(done.body.result).toMatchObject({ status: 'success', data: { migrationId, status: 'completed', organizationId: 'org-a', targetOrganizationId: 'org-b', totalDocuments: 50, migratedDocuments: 50, failureReason: null } });
    expect(await ops.stats(acme.workspaceId, 'org-a')).toEqual({ documents: 0, records: 0 });
    expect(await ops.stats(acme.workspaceId, 'org-b')).toEqual({ documents: 50, records: 150 });
  });
});
