import type { Browser } from 'playwright-core';
import { MIGRATION_QUEUE } from '@acme/document-migration';
import { launchBrowser, TestApp } from '@acme/platform-testing';
import { ADMIN_TOKEN, startMigrationApp } from './support';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('queue dashboard (/admin/v1/queues) in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startMigrationApp(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('asks a browser for the operator token through HTTP Basic, in the API error shape', async () => {
    for (const authorization of [undefined, basic('operator', 'wrong-token'), basic('operator', '')]) {
      const response = await fetch(`${app.url}/admin/v1/queues`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+", charset="UTF-8"$/);
      expect(await response.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    }
  });

  it('accepts the token as a Basic password or a Bearer token, whatever the user name', async () => {
    for (const authorization of [basic('anyone', ADMIN_TOKEN), `Bearer ${ADMIN_TOKEN}`]) {
      const response = await fetch(`${app.url}/admin/v1/queues`, { headers: { authorization } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
    }
  });

  it('opens in headless Chromium with the credentials the browser asked for, assets included, and shows the queue', async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'operator', password: ADMIN_TOKEN } });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const opened = await page.goto(`${app.url}/admin/v1/queues`);
    expect(opened?.status()).toBe(200);
    await page.getByText(MIGRATION_QUEUE).first().waitFor({ timeout: 30_000 });
    expect(failed).toEqual([]);
    await context.close();
  }, 60_000);
});
