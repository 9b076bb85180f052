import type { Browser } from 'playwright-core';
import { launchBrowser, SwaggerUi, TestApp } from '@acme/platform-testing';
import { createTenant, rum, startRum, typeErrorRule } from './support/rum-client';

describe('Swagger UI (/docs): Authorize with an app key, then "Try it out"', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startRum(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("authorizes with an account's app key (sent as ?app_key=) and lists its application's rules", async () => {
    const tenant = await createTenant(app);
    const created = await rum(app, 'rules/create', tenant.appKey, {
      application_id: tenant.applicationId,
      ...typeErrorRule(),
    });
    expect(created.status).toBe(200);
    const ui = await SwaggerUi.open(browser, app.url);
    await ui.authorize({ appKey: tenant.appKey });
    const listed = await ui.execute('post', '/rum/error-ingestion/rules/list', {
      body: { application_id: tenant.applicationId },
    });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({
      data: { total: 1, items: [expect.objectContaining({ rule_name: typeErrorRule().rule_name })] },
    });
  }, 60_000);
});
