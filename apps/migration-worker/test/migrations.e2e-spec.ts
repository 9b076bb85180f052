import { TestApp } from '@acme/platform-testing';
import {
  client,
  countMigrations,
  Credentials,
  makeDocuments,
  operator,
  startMigrationApp,
  waitForStatus,
  withDb,
} from './support';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

/** Routes and states with a worker in the same process (MIGRATION_ROLE=all). */
describe('document migration API (api + worker)', () => {
  let app: TestApp;
  let ops: ReturnType<typeof operator>;
  let acme: Credentials;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    app = await startMigrationApp({
      MIGRATION_BATCH_SIZE: '7',
      MIGRATION_SLICE_SIZE: '20',
      MIGRATION_JOB_ATTEMPTS: '2',
    });
    ops = operator(app);
    acme = await ops.workspace('acme');
    api = client(app, acme);
    for (const org of ['org-a', 'org-b', 'org-c', 'org-d', 'org-e', 'org-f'])
      await ops.organization(acme.workspaceId, org);
  });
  afterAll(async () => app?.close());

  it('moves every document of an organization with its records: pending, then completed with progress and timestamps', async () => {
    expect((await ops.importDocuments(acme.workspaceId, 'org-a', makeDocuments('a', 50, 3))).body).toEqual({
      documents: 50,
      records: 150,
    });
    const started = await api.start({ organizationId: 'org-a', targetOrganizationId: 'org-b' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      result: {
        status: 'success',
        message: expect.any(String),
        data: { migrationId: expect.any(String), status: 'pending' },
      },
    });
    const { migrationId } = started.body.result.data;
    const done = await waitForStatus(api, 'org-b', migrationId, 'completed');
    expect(done).toMatchObject({
      migrationId,
      status: 'completed',
      organizationId: 'org-a',
      targetOrganizationId: 'org-b',
      totalDocuments: 50,
      migratedDocuments: 50,
      failureReason: null,
    });
    expect(Date.parse(done.createdAt)).toBeLessThanOrEqual(Date.parse(done.startedAt));
    expect(Date.parse(done.startedAt)).toBeLessThanOrEqual(Date.parse(done.finishedAt));
    // Readable through the source organization too.
    expect((await api.status('org-a', migrationId)).body.result).toMatchObject({
      status: 'success',
      message: 'Migration status retrieved.',
      data: { status: 'completed' },
    });
    expect(await ops.stats(acme.workspaceId, 'org-a')).toEqual({ documents: 0, records: 0 });
    expect(await ops.stats(acme.workspaceId, 'org-b')).toEqual({ documents: 50, records: 150 });
  });

  it('moves only the listed documents and releases them when done', async () => {
    await ops.importDocuments(acme.workspaceId, 'org-c', makeDocuments('c', 30, 2));
    const ids = ['c-3', 'c-1', 'c-29', 'c-17'];
    const started = await api.start({ organizationId: 'org-c', targetOrganizationId: 'org-d', documentIds: ids });
    const done = await waitForStatus(api, 'org-c', started.body.result.data.migrationId, 'completed');
    expect(done).toMatchObject({ totalDocuments: 4, migratedDocuments: 4 });
    expect(await ops.stats(acme.workspaceId, 'org-c')).toEqual({ documents: 26, records: 52 });
    expect(await ops.stats(acme.workspaceId, 'org-d')).toEqual({ documents: 4, records: 8 });
    // Released: the same documents can move again (back).
    const back = await api.start({ organizationId: 'org-d', targetOrganizationId: 'org-c', documentIds: ['c-3'] });
    expect(back.status).toBe(200);
    await waitForStatus(api, 'org-d', back.body.result.data.migrationId, 'completed');
    expect(await ops.stats(acme.workspaceId, 'org-d')).toEqual({ documents: 3, records: 6 });
  });

  it('completes a migration of an empty organization with zero documents', async () => {
    const started = await api.start({ organizationId: 'org-e', targetOrganizationId: 'org-f' });
    expect(await waitForStatus(api, 'org-e', started.body.result.data.migrationId, 'completed')).toMatchObject({
      totalDocuments: 0,
      migratedDocuments: 0,
    });
  });

  it('shows in_progress while a batch waits, and cancel stops it with moved documents kept consistent', async () => {
    await ops.importDocuments(acme.workspaceId, 'org-e', makeDocuments('e', 40, 1));
    await withDb(app, async (blocker) => {
      // Hold one document's row: the worker's batch containing it waits, so the migration stays in progress.
      await blocker.query('BEGIN');
      await blocker.query(
        `SELECT d.key FROM "${MIGRATION_SCHEMA}"."documents" d JOIN "${MIGRATION_SCHEMA}"."organizations" o ON o.key = d.organization_key
         WHERE o.id = 'org-e' AND d.id = 'e-20' FOR UPDATE OF d`,
      );
      const started = await api.start({ organizationId: 'org-e', targetOrganizationId: 'org-f' });
      const migrationId = started.body.result.data.migrationId;
      const running = await waitForStatus(api, 'org-f', migrationId, 'in_progress');
      expect(running.startedAt).toEqual(expect.any(String));
      expect(running.finishedAt).toBeNull();
      expect(running.migratedDocuments).toBeLessThan(40);
      const cancelling = api.cancel('org-e', migrationId);
      await blocker.query('ROLLBACK');
      const cancelled = await cancelling;
      expect(cancelled.status).toBe(200);
      // The wire knows four states: cancelled reads failed, with who cancelled it as message and reason.
      const reason = `Cancelled through /migrate/cancel by workspace ${acme.workspaceId} (request for organization org-e).`;
      expect(cancelled.body.result).toMatchObject({
        status: 'success',
        message: reason,
        data: { status: 'failed', failureReason: reason },
      });
      expect((await api.status('org-f', migrationId)).body.result).toMatchObject({
        message: reason,
        data: { status: 'failed', failureReason: reason },
      });
      const final = (await api.status('org-e', migrationId)).body.result.data;
      const source = await ops.stats(acme.workspaceId, 'org-e');
      const target = await ops.stats(acme.workspaceId, 'org-f');
      expect(target.documents).toBe(final.migratedDocuments);
      expect(source.documents + target.documents).toBe(40);
      expect(source.records + target.records).toBe(40);
      // Cancelling again is a precondition failure; the documents are free for a new migration.
      expect((await api.cancel('org-e', migrationId)).body).toEqual({
        error: { message: expect.stringContaining('already'), status: 'FAILED_PRECONDITION' },
      });
      const rest = await api.start({ organizationId: 'org-e', targetOrganizationId: 'org-f' });
      await waitForStatus(api, 'org-e', rest.body.result.data.migrationId, 'completed');
      expect(await ops.stats(acme.workspaceId, 'org-f')).toEqual({ documents: 40, records: 40 });
    });
  });

  it('ends failed with its reason when a document cannot be moved (same id already in the target)', async () => {
    await ops.organization(acme.workspaceId, 'org-x');
    await ops.organization(acme.workspaceId, 'org-y');
    await ops.importDocuments(acme.workspaceId, 'org-x', makeDocuments('x', 25, 2));
    await ops.importDocuments(acme.workspaceId, 'org-y', [{ id: 'x-12', title: 'already here', records: [] }]);
    const before = await countMigrations(app);
    const started = await api.start({ organizationId: 'org-x', targetOrganizationId: 'org-y' });
    expect(await countMigrations(app)).toBe(before + 1);
    const failed = await waitForStatus(api, 'org-y', started.body.result.data.migrationId, 'failed');
    expect(failed.failureReason).toContain("'x-12'");
    expect(failed.finishedAt).toEqual(expect.any(String));
    expect(failed.migratedDocuments).toBeLessThan(25);
    const source = await ops.stats(acme.workspaceId, 'org-x');
    const target = await ops.stats(acme.workspaceId, 'org-y');
    expect(source.documents + target.documents).toBe(26);
    expect(target.documents - 1).toBe(failed.migratedDocuments);
    expect(source.records + target.records).toBe(50);
  });

  it('exposes migrations by state, documents moved and batch durations on /metrics', async () => {
    const text = await (await fetch(`${app.url}/metrics`)).text();
    expect(text).toMatch(/migration_migrations\{state="completed"\} [1-9]/);
    expect(text).toMatch(/migration_migrations\{state="failed"\} 1/);
    expect(text).toMatch(/migration_migrations\{state="cancelled"\} 1/);
    expect(text).toMatch(/migration_documents_moved_total [1-9]/);
    expect(text).toContain('migration_batch_duration_seconds_bucket');
  });

  it('stores workspace secrets only as digests', async () => {
    const rows = await withDb(
      app,
      async (db) => (await db.query(`SELECT * FROM "${MIGRATION_SCHEMA}"."workspaces"`)).rows,
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(acme.apiKey);
    expect(stored).not.toContain(acme.authToken);
  });
});
