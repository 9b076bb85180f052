import { emptyObjectsBody, rssMegabytes, TestApp, timedPost, UNREAD_BODY_ANSWER_MS } from '@acme/platform-testing';
import { ADMIN_TOKEN, Credentials, makeDocuments, operator, startMigrationApp } from './support';

/** Cost before auth is bounded (docs/security.md, API4; issue 25 item 1). */
describe('migration API: body limits', () => {
  let app: TestApp;
  let acme: Credentials;
  const migrateUrl = () => `${app.url}/v2/organizations/documents/migrate`;

  beforeAll(async () => {
    app = await startMigrationApp({ MIGRATION_ROLE: 'api' });
    acme = await operator(app).workspace('acme');
    await operator(app).organization(acme.workspaceId, 'org-a');
  });
  afterAll(async () => app?.close());

  it('answers a 21 MB anonymous body of empty objects to migrate at once, without parsing it or keeping memory', async () => {
    const body = emptyObjectsBody(21 * 1024 * 1024);
    const before = rssMegabytes();
    const answer = await timedPost(migrateUrl(), body);
    // Over the route's 16 MB: refused before authentication, in the API's shape (its spec has no 413).
    process.stdout.write(
      `21 MB anonymous migrate: answered in ${answer.ms.toFixed(1)} ms, RSS +${(rssMegabytes() - before).toFixed(1)} MB\n`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.status).toBe('INVALID_ARGUMENT');
    expect(answer.ms).toBeLessThan(UNREAD_BODY_ANSWER_MS);
    expect(rssMegabytes() - before).toBeLessThan(100);
  });

  it('answers a 15 MB anonymous body to migrate 401 from its guard, without reading it', async () => {
    const body = emptyObjectsBody(15 * 1024 * 1024);
    const before = rssMegabytes();
    const answer = await timedPost(migrateUrl(), body, {
      headers: { 'x-service-api-key': 'wk_nope', 'x-service-auth-token': 'x' },
    });
    process.stdout.write(
      `15 MB anonymous migrate: answered in ${answer.ms.toFixed(1)} ms, RSS +${(rssMegabytes() - before).toFixed(1)} MB\n`,
    );
    expect([answer.status, answer.body.error?.status]).toEqual([401, 'UNAUTHENTICATED']);
    expect(answer.ms).toBeLessThan(UNREAD_BODY_ANSWER_MS);
    expect(rssMegabytes() - before).toBeLessThan(100);
  });

  it('refuses a 2 MB body on a route without a larger limit (operator workspace creation), in the API shape', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    const answer = await timedPost(`${app.url}/admin/v1/workspaces`, body, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect([answer.status, answer.body.error?.status]).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it('reads an operator import over 1 MB once the operator token is accepted, and refuses it without the token', async () => {
    const documents = makeDocuments('big', 300, 5).map((document) => ({ ...document, content: 'y'.repeat(4000) }));
    const body = Buffer.from(JSON.stringify({ documents }));
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const url = `${app.url}/admin/v1/workspaces/${acme.workspaceId}/organizations/org-a/documents`;
    const anonymous = await timedPost(url, body);
    expect([anonymous.status, anonymous.body.error?.status]).toEqual([401, 'UNAUTHENTICATED']);
    const imported = await timedPost(url, body, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(imported.status).toBe(201);
    expect(await operator(app).stats(acme.workspaceId, 'org-a')).toEqual({ documents: 300, records: 1500 });
  });
});
