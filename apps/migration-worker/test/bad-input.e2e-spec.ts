import fc from 'fast-check';
import { hostileText, TestApp } from '@acme/platform-testing';
import {
  ADMIN_TOKEN,
  call,
  client,
  countMigrations,
  Credentials,
  makeDocuments,
  operator,
  startMigrationApp,
} from './support';

const STATUS_NAMES = ['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'NOT_FOUND', 'FAILED_PRECONDITION'];
const errorBody = (status: string) => ({ error: { message: expect.any(String), status } });

/** API-only instance: nothing runs the jobs, so started migrations stay unfinished and keep their holds. */
describe('document migration API: bad input and holds', () => {
  let app: TestApp;
  let ops: ReturnType<typeof operator>;
  let acme: Credentials;
  let globex: Credentials;
  let api: ReturnType<typeof client>;
  const migrateUrl = () => `${app.url}/v2/organizations/documents/migrate`;

  beforeAll(async () => {
    // Eight concurrent starts below test the exclusion constraint, not the per-instance bound on starts.
    app = await startMigrationApp({ MIGRATION_ROLE: 'api', HEAVY_ROUTE_CONCURRENCY: '16' });
    ops = operator(app);
    acme = await ops.workspace('acme');
    globex = await ops.workspace('globex');
    api = client(app, acme);
    for (const org of ['org-a', 'org-b', 'org-c', 'org-d', 'org-e']) await ops.organization(acme.workspaceId, org);
    await ops.organization(globex.workspaceId, 'globex-org');
    await ops.importDocuments(acme.workspaceId, 'org-a', makeDocuments('a', 20, 1));
    await ops.importDocuments(acme.workspaceId, 'org-b', makeDocuments('b', 5, 1));
    await ops.importDocuments(acme.workspaceId, 'org-d', makeDocuments('d', 5, 1));
    await ops.importDocuments(globex.workspaceId, 'globex-org', makeDocuments('g', 3, 1));
  });
  afterAll(async () => app?.close());

  describe('nothing is created for a rejected start', () => {
    afterEach(async () => expect(await countMigrations(app)).toBe(0));
    const valid = { organizationId: 'org-a', targetOrganizationId: 'org-b' };

    it.each([
      ['no headers', {}],
      ['no auth token', { 'x-service-api-key': 'k' }],
      ['no api key', { 'x-service-auth-token': 't' }],
      ['empty headers', { 'x-service-api-key': '', 'x-service-auth-token': '' }],
      ['unknown api key', { 'x-service-api-key': 'wk_nope', 'x-service-auth-token': 'wat_nope' }],
    ])('answers UNAUTHENTICATED with %s', async (_, headers) => {
      const response = await call(migrateUrl(), { body: { data: valid }, headers });
      expect(response).toEqual({ status: 401, body: errorBody('UNAUTHENTICATED') });
    });

    it('answers UNAUTHENTICATED for a wrong token or another workspace token', async () => {
      for (const token of [`${acme.authToken}x`, globex.authToken]) {
        const response = await call(migrateUrl(), {
          body: { data: valid },
          headers: { 'x-service-api-key': acme.apiKey, 'x-service-auth-token': token },
        });
        expect(response).toEqual({ status: 401, body: errorBody('UNAUTHENTICATED') });
      }
    });

    it.each([
      ['an unknown source', { organizationId: 'nope', targetOrganizationId: 'org-b' }],
      ['an unknown target', { organizationId: 'org-a', targetOrganizationId: 'nope' }],
      ["another workspace's organization as source", { organizationId: 'globex-org', targetOrganizationId: 'org-b' }],
      ["another workspace's organization as target", { organizationId: 'org-a', targetOrganizationId: 'globex-org' }],
      ['ids that are not in the source', { ...valid, documentIds: ['a-1', 'b-1'] }],
      ['ids that do not exist', { ...valid, documentIds: ['zzz'] }],
      ["another workspace's document ids", { ...valid, documentIds: ['g-1'] }],
    ])('answers NOT_FOUND for %s', async (_, data) => {
      expect(await api.start(data)).toEqual({ status: 404, body: errorBody('NOT_FOUND') });
    });

    it.each([
      ['source = target', { organizationId: 'org-a', targetOrganizationId: 'org-a' }],
      ['an empty id list', { ...valid, documentIds: [] }],
      ['10,001 ids', { ...valid, documentIds: Array.from({ length: 10001 }, (_, i) => `a-${i}`) }],
      ['duplicate ids', { ...valid, documentIds: ['a-1', 'a-1'] }],
      ['non-string ids', { ...valid, documentIds: [1, 2] }],
      ['ids not an array', { ...valid, documentIds: 'a-1' }],
      ['a null id list', { ...valid, documentIds: null }],
      ['a missing target', { organizationId: 'org-a' }],
      ['a numeric organization', { organizationId: 5, targetOrganizationId: 'org-b' }],
      ['an unknown property', { ...valid, force: true }],
      ['an empty organization id', { organizationId: '', targetOrganizationId: 'org-b' }],
    ])('answers INVALID_ARGUMENT for %s', async (_, data) => {
      expect(await api.start(data)).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
    });

    it.each([
      ['malformed JSON', '{"data": {"organizationId": "org-a",'],
      ['no data', '{}'],
      ['data not an object', '{"data": "org-a"}'],
      ['data an array', '{"data": []}'],
      ['a JSON array body', '[]'],
      [
        'an unknown top-level property',
        '{"data": {"organizationId": "org-a", "targetOrganizationId": "org-b"}, "x": 1}',
      ],
    ])('answers INVALID_ARGUMENT for %s', async (_, raw) => {
      const response = await call(migrateUrl(), {
        raw,
        headers: { 'x-service-api-key': acme.apiKey, 'x-service-auth-token': acme.authToken },
      });
      expect(response).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
    });

    it('never answers 5xx or creates a migration for arbitrary bodies (property)', async () => {
      const headers = { 'x-service-api-key': acme.apiKey, 'x-service-auth-token': acme.authToken };
      const orgId = fc.oneof(
        fc.constantFrom('org-a', 'org-b', 'globex-org', ''),
        hostileText(),
        fc.integer(),
        fc.constant(null),
      );
      const data = fc.oneof(
        fc
          .record(
            {
              organizationId: orgId,
              targetOrganizationId: fc.oneof(fc.constant('org-a'), orgId),
              documentIds: fc.oneof(fc.array(fc.oneof(hostileText(), fc.integer())), fc.anything()),
            },
            { requiredKeys: [] },
          )
          .filter(
            (d) =>
              !(
                typeof d.organizationId === 'string' &&
                typeof d.targetOrganizationId === 'string' &&
                d.organizationId !== d.targetOrganizationId &&
                ['org-a', 'org-b'].includes(d.organizationId) &&
                ['org-a', 'org-b'].includes(d.targetOrganizationId) &&
                d.documentIds === undefined
              ),
          ),
        fc.anything(),
      );
      await fc.assert(
        fc.asyncProperty(data, async (value) => {
          const response = await call(migrateUrl(), { body: { data: value }, headers });
          expect([400, 404]).toContain(response.status);
          expect(response.body).toEqual({
            error: {
              message: expect.any(String),
              status: expect.stringMatching(new RegExp(`^(${STATUS_NAMES.join('|')})$`)),
            },
          });
        }),
        { numRuns: 150 },
      );
    }, 60000);
  });

  describe('status', () => {
    let migrationId: string;
    beforeAll(async () => {
      migrationId = (await api.start({ organizationId: 'org-d', targetOrganizationId: 'org-e', documentIds: ['d-0'] }))
        .body.result.data.migrationId;
    });

    it('reads a pending migration through its source or target organization', async () => {
      for (const org of ['org-d', 'org-e']) {
        const response = await api.status(org, migrationId);
        expect(response.status).toBe(200);
        expect(response.body.result).toMatchObject({
          status: 'success',
          data: { migrationId, status: 'pending', totalDocuments: 1, migratedDocuments: 0, startedAt: null },
        });
      }
    });

    it.each([
      ['an unknown migration', 'org-d', '00000000-0000-4000-8000-000000000000'],
      ['a malformed migration id', 'org-d', 'not-a-uuid'],
      ['an organization that is neither source nor target', 'org-a', null],
      ['an unknown organization', 'nope', null],
    ])('answers NOT_FOUND for %s', async (_, org, id) => {
      expect(await api.status(org, id ?? migrationId)).toEqual({ status: 404, body: errorBody('NOT_FOUND') });
    });

    it('answers NOT_FOUND to another workspace and UNAUTHENTICATED without credentials', async () => {
      expect(await client(app, globex).status('org-d', migrationId)).toEqual({
        status: 404,
        body: errorBody('NOT_FOUND'),
      });
      expect(await client(app, { apiKey: acme.apiKey, authToken: '' }).status('org-d', migrationId)).toEqual({
        status: 401,
        body: errorBody('UNAUTHENTICATED'),
      });
    });

    it.each([
      ['{}'],
      ['{"data": {"organizationId": "org-d"}}'],
      ['{"data": {"organizationId": "org-d", "migrationId": 7}}'],
      ['{"data":'],
    ])('answers INVALID_ARGUMENT for body %s', async (raw) => {
      const response = await call(`${migrateUrl()}/status`, {
        raw,
        headers: { 'x-service-api-key': acme.apiKey, 'x-service-auth-token': acme.authToken },
      });
      expect(response).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
    });

    it('cancels a pending migration, releasing its documents', async () => {
      const cancelled = await api.cancel('org-e', migrationId);
      expect(cancelled.body.result.data).toMatchObject({
        status: 'failed',
        failureReason: expect.stringContaining('Cancelled'),
        migratedDocuments: 0,
      });
      expect(await api.cancel('org-e', migrationId)).toEqual({ status: 409, body: errorBody('FAILED_PRECONDITION') });
    });
  });

  describe('FAILED_PRECONDITION while an unfinished migration holds documents (enforced by an exclusion constraint)', () => {
    it('rejects overlap and accepts disjoint documents', async () => {
      const before = await countMigrations(app);
      expect(
        (await api.start({ organizationId: 'org-a', targetOrganizationId: 'org-b', documentIds: ['a-1', 'a-2'] }))
          .status,
      ).toBe(200);
      for (const data of [
        { organizationId: 'org-a', targetOrganizationId: 'org-c', documentIds: ['a-2', 'a-3'] },
        { organizationId: 'org-a', targetOrganizationId: 'org-c' },
        { organizationId: 'org-b', targetOrganizationId: 'org-c' },
      ]) {
        expect(await api.start(data)).toEqual({ status: 409, body: errorBody('FAILED_PRECONDITION') });
      }
      expect(
        (await api.start({ organizationId: 'org-a', targetOrganizationId: 'org-c', documentIds: ['a-3'] })).status,
      ).toBe(200);
      // Listed documents leaving org-b do not meet the documents arriving there.
      expect(
        (await api.start({ organizationId: 'org-b', targetOrganizationId: 'org-c', documentIds: ['b-1'] })).status,
      ).toBe(200);
      expect(await countMigrations(app)).toBe(before + 3);
    });

    it('lets exactly one of several concurrent whole-organization starts through', async () => {
      const before = await countMigrations(app);
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api.start({ organizationId: 'org-e', targetOrganizationId: i % 2 ? 'org-c' : 'org-d' }),
        ),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 409)).toHaveLength(7);
      expect(await countMigrations(app)).toBe(before + 1);
    });
  });

  describe('operator API', () => {
    const admin = (path: string, body?: unknown, token = ADMIN_TOKEN) =>
      call(`${app.url}/admin/v1${path}`, { body, headers: { authorization: `Bearer ${token}` } });

    it('requires the operator token', async () => {
      expect(await admin('/workspaces', { name: 'x' }, 'wrong-token')).toEqual({
        status: 401,
        body: errorBody('UNAUTHENTICATED'),
      });
      expect((await call(`${app.url}/admin/v1/workspaces`, { body: { name: 'x' } })).status).toBe(401);
    });

    it('validates workspaces and organizations', async () => {
      expect(await admin('/workspaces', {})).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
      expect(await admin(`/workspaces/${acme.workspaceId}/organizations`, { organizationId: 'org-a' })).toEqual({
        status: 409,
        body: errorBody('FAILED_PRECONDITION'),
      });
      expect(
        await admin('/workspaces/00000000-0000-4000-8000-000000000000/organizations', { organizationId: 'o' }),
      ).toEqual({ status: 404, body: errorBody('NOT_FOUND') });
      expect(await admin('/workspaces/not-a-uuid/organizations', { organizationId: 'o' })).toEqual({
        status: 404,
        body: errorBody('NOT_FOUND'),
      });
      expect(await admin(`/workspaces/${globex.workspaceId}/organizations/org-a/stats`)).toEqual({
        status: 404,
        body: errorBody('NOT_FOUND'),
      });
    });

    it('imports all or nothing', async () => {
      await ops.organization(acme.workspaceId, 'import-org');
      const path = `/workspaces/${acme.workspaceId}/organizations/import-org/documents`;
      const duplicate = await admin(path, { documents: [...makeDocuments('i', 3), { id: 'i-1', title: 'again' }] });
      expect(duplicate).toEqual({ status: 409, body: errorBody('FAILED_PRECONDITION') });
      expect(await ops.stats(acme.workspaceId, 'import-org')).toEqual({ documents: 0, records: 0 });
      expect(await admin(path, { documents: [] })).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
      expect(
        await admin(path, { documents: Array.from({ length: 10001 }, (_, i) => ({ id: `x${i}`, title: '' })) }),
      ).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
      expect(
        await admin(path, {
          documents: [{ id: 'r', title: 't', records: [{ id: 'r1', kind: 'comment', body: 'text' }] }],
        }),
      ).toEqual({ status: 400, body: errorBody('INVALID_ARGUMENT') });
      const many = await admin(path, { documents: makeDocuments('big', 10000, 1) });
      expect(many).toEqual({ status: 201, body: { documents: 10000, records: 10000 } });
    }, 60000);

    it('serves the queue dashboard to the operator only', async () => {
      expect((await fetch(`${app.url}/admin/v1/queues`)).status).toBe(401);
      const page = await fetch(`${app.url}/admin/v1/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const queues = await admin('/queues/api/queues');
      expect(queues.status).toBe(200);
      expect(JSON.stringify(queues.body)).toContain('document-migrations');
    });
  });
});
