import type { Browser } from 'playwright-core';
import { launchBrowser, SwaggerUi, TestApp } from '@acme/platform-testing';
import { client, operator, startMigrationApp } from './support';

describe('Swagger UI (/docs): Authorize with the workspace key and token, then "Try it out"', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startMigrationApp(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('sends both credentials and reads a migration back', async () => {
    const ops = operator(app);
    const workspace = await ops.workspace('swagger');
    await ops.organization(workspace.workspaceId, 'from');
    await ops.organization(workspace.workspaceId, 'to');
    await ops.importDocuments(workspace.workspaceId, 'from', [{ id: 'd1', title: 'One' }]);
    const started = await client(app, workspace).start({ organizationId: 'from', targetOrganizationId: 'to' });
    const migrationId = started.body.result.data.migrationId as string;

    const ui = await SwaggerUi.open(browser, app.url);
    await ui.authorize({ apiKey: workspace.apiKey, authToken: workspace.authToken });
    const status = await ui.execute('post', '/v2/organizations/documents/migrate/status', {
      body: { data: { organizationId: 'from', migrationId } },
    });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body)).toMatchObject({ result: { data: { migrationId, organizationId: 'from' } } });
  }, 60_000);
});
