import { join } from 'node:path';
import {
  TestApp,
  readDereferencedOpenApi,
  requestWithOversizedHeaders,
  walkOpenApiWithHostileInput,
} from '@acme/platform-testing';
import { ADMIN_TOKEN, client, Credentials, operator, startMigrationApp } from './support';

/** Every operation of the committed OpenAPI contract, fed hostile values one input at a time: never a 5xx. */
describe('OpenAPI walk with hostile input', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startMigrationApp();
  });
  afterAll(async () => app?.close());

  it('answers every hostile request of every operation with less than 500', async () => {
    const ops = operator(app);
    const workspace: Credentials = await ops.workspace('walk');
    await ops.organization(workspace.workspaceId, 'org-walk');
    const document = await readDereferencedOpenApi(join(__dirname, '../openapi.json'));
    const report = await walkOpenApiWithHostileInput({
      baseUrl: app.url,
      document,
      headers: (_method, path): Record<string, string> =>
        path.startsWith('/admin/')
          ? { authorization: `Bearer ${ADMIN_TOKEN}` }
          : { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken },
      pathValues: { workspaceId: workspace.workspaceId, organizationId: 'org-walk' },
    });
    expect(report.operations.length).toBe(Object.values(document.paths).flatMap((item) => Object.keys(item)).length);
    expect(report.requests).toBeGreaterThan(report.operations.length * 10);
    expect(report.findings).toEqual([]);
  }, 600_000);

  it('refuses NUL and lone surrogates with 400 INVALID_ARGUMENT on the public and operator routes', async () => {
    const ops = operator(app);
    const workspace: Credentials = await ops.workspace('nul');
    const invalid = {
      error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('NUL or unpaired surrogate') },
    };
    const api = client(app, workspace);
    expect(
      await api.start({ organizationId: 'org\u0000', targetOrganizationId: 'b', documentIds: ['d'] }),
    ).toMatchObject({ status: 400, body: invalid });
    expect(await ops.admin('/workspaces', { name: '\ud800' })).toMatchObject({ status: 400, body: invalid });
    expect(
      await ops.admin(`/workspaces/${workspace.workspaceId}/organizations`, { organizationId: 'a\u0000' }),
    ).toMatchObject({ status: 400, body: invalid });
    expect(await ops.admin(`/workspaces/a%00/organizations`, { organizationId: 'a' })).toMatchObject({
      status: 400,
      body: invalid,
    });
  });

  it("answers headers over Node's limit in the Velt shape, not with a bare 431", async () => {
    expect(await requestWithOversizedHeaders(app.url, '/v2/organizations/documents/migrate/status')).toEqual({
      status: 400,
      contentType: 'application/json; charset=utf-8',
      body: { error: { message: 'The request headers are too large.', status: 'INVALID_ARGUMENT' } },
    });
  });
});
