import { emptyObjectsBody, rssMegabytes, timedPost, UNREAD_BODY_ANSWER_MS } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { onlineEvent } from './support/events-fixtures';

jest.setTimeout(120_000);

// The spec's 413 is `{code, message}`; other errors are `{error, code}` (src/http/error-presenter.ts).
const tooLarge = { code: 'request/payload-too-large', message: expect.any(String) };

/** Cost before auth is bounded (docs/security.md, API4; issue 25 item 1): 1 MB everywhere, 2 MB for event creation. */
describe('community API: body limits', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;

  beforeAll(async () => {
    t = await CommunityTestApp.start();
    project = await t.createProject(['spaces']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => t?.close());

  it('answers an anonymous 1.8 MB event body 401 from its guard, without reading or keeping it', async () => {
    const before = rssMegabytes();
    const answer = await timedPost(`${t.url}${API(project.id)}/events`, emptyObjectsBody(1.8 * 1024 * 1024));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: expect.any(String), code: 'auth/unauthorized' });
    expect(answer.ms).toBeLessThan(UNREAD_BODY_ANSWER_MS);
    expect(rssMegabytes() - before).toBeLessThan(100);
  });

  it('refuses an event body over 2 MB with 413 request/payload-too-large, even authenticated', async () => {
    const body = JSON.stringify(onlineEvent({ metadata: { blob: 'x'.repeat(3 * 1024 * 1024) } }));
    const answer = await timedPost(`${t.url}${API(project.id)}/events`, body, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect([answer.status, answer.body]).toEqual([413, tooLarge]);
  });

  it('refuses a body over 1 MB on sign-up (no larger limit) with 413 at once', async () => {
    const body = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(1100 * 1024) });
    const answer = await timedPost(`${t.url}${API(project.id)}/auth/sign-up`, body);
    expect([answer.status, answer.body]).toEqual([413, tooLarge]);
    expect(answer.ms).toBeLessThan(UNREAD_BODY_ANSWER_MS);
  });
});
