import type { Browser } from 'playwright-core';
import { launchBrowser, SwaggerUi } from '@acme/platform-testing';
import { API, CommunityTestApp } from './support/community-app';

describe('Swagger UI (/docs): Authorize with a bearer token, then "Try it out"', () => {
  let t: CommunityTestApp;
  let browser: Browser;
  beforeAll(async () => {
    [t, browser] = await Promise.all([CommunityTestApp.start(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("authorizes with an end user's access token and reads that user back", async () => {
    const project = await t.createProject();
    const user = await t.signUp(project.id);
    const ui = await SwaggerUi.open(browser, t.url);
    await ui.authorize({ bearer: user.accessToken });
    const me = await ui.execute('get', `${API('{projectId}')}/auth/me`, { params: { projectId: project.id } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ id: user.id, email: user.email });
  }, 60_000);
});
