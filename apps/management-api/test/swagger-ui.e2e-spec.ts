import type { Browser } from 'playwright-core';
import { launchBrowser, SwaggerUi } from '@acme/platform-testing';
import { AUDIENCE, BOOTSTRAP, ManagementApp, startManagement } from './support';

describe('Swagger UI (/docs): Authorize with client credentials, then "Try it out"', () => {
  let app: ManagementApp;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([
      startManagement({ env: { MANAGEMENT_DEFAULT_AUDIENCE: AUDIENCE } }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('gets a token through the oauth2 scheme (no audience sent: the default audience) and lists the clients', async () => {
    const ui = await SwaggerUi.open(browser, app.url);
    await ui.authorize({ oauth2: BOOTSTRAP });
    const listed = await ui.execute('get', '/api/v2/clients');
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toEqual(
      expect.arrayContaining([expect.objectContaining({ client_id: BOOTSTRAP.clientId })]),
    );
  }, 60_000);

  it('issues a token without `audience` only where a default audience is configured, for that audience', async () => {
    const form = (id: string, secret: string) =>
      fetch(`${app.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
    const issued = await form(BOOTSTRAP.clientId, BOOTSTRAP.clientSecret);
    expect(issued.status).toBe(200);
    const token = ((await issued.json()) as { access_token: string }).access_token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims.aud).toBe(AUDIENCE);

    const withoutDefault = await startManagement({
      shareWith: { database: app.database, redisPrefix: app.redisPrefix },
    });
    try {
      const refused = await fetch(`${withoutDefault.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: BOOTSTRAP.clientId,
          client_secret: BOOTSTRAP.clientSecret,
        }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: 'invalid_request',
        error_description: 'Missing required parameter: audience',
      });
    } finally {
      await withoutDefault.close();
    }
  });
});
