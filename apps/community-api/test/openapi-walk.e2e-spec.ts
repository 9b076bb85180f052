import { join } from 'node:path';
import {
  readDereferencedOpenApi,
  requestWithOversizedHeaders,
  walkOpenApiWithHostileInput,
} from '@acme/platform-testing';
import { ADMIN_TOKEN, API, CommunityTestApp } from './support/community-app';

/** Every operation of the committed OpenAPI contract, fed hostile values one input at a time: never a 5xx. */
describe('OpenAPI walk with hostile input', () => {
  let app: CommunityTestApp;

  beforeAll(async () => {
    app = await CommunityTestApp.start({
      env: {
        SIGN_IN_ATTEMPTS_PER_MINUTE: '100000',
        VERIFICATION_ATTEMPTS_PER_MINUTE: '100000',
        VERIFICATION_ATTEMPTS_PER_HOUR: '100000',
      },
    });
  });
  afterAll(async () => app?.close());

  it('answers every hostile request of every operation with less than 500', async () => {
    const project = await app.createProject();
    const user = await app.signUp(project.id);
    const event = await app.request('POST', `${API(project.id)}/events`, {
      token: user.accessToken,
      body: { title: 'Walk target', startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T11:00:00Z' },
    });
    const space = await app.admin('POST', `/projects/${project.id}/spaces`, { name: 'walk space' });
    const document = await readDereferencedOpenApi(join(__dirname, '../openapi.json'));
    const report = await walkOpenApiWithHostileInput({
      baseUrl: app.url,
      document,
      headers: (_method, path) => ({
        authorization: `Bearer ${path.startsWith('/admin/') ? ADMIN_TOKEN : user.accessToken}`,
      }),
      pathValues: {
        id: project.id,
        projectId: project.id,
        eventId: event.body?.id ?? 'x',
        spaceId: space.body?.id ?? 'x',
        userId: user.id,
      },
    });
    expect(report.operations.length).toBe(Object.values(document.paths).flatMap((item) => Object.keys(item)).length);
    expect(report.requests).toBeGreaterThan(report.operations.length * 10);
    expect(report.findings).toEqual([]);
  }, 600_000);

  it('refuses NUL and lone surrogates in auth bodies, paths and queries with request/invalid-body naming the field', async () => {
    const project = await app.createProject();
    const signUp = await app.request('POST', `${API(project.id)}/auth/sign-up`, {
      body: { email: 'nul\u0000@example.com', password: 'correct horse battery' },
    });
    expect(signUp).toMatchObject({ status: 400, body: { code: 'request/invalid-body', field: 'email' } });
    const signIn = await app.request('POST', `${API(project.id)}/auth/sign-in`, {
      body: '{"email":"a@b.c","password":"\\udc00"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(signIn).toMatchObject({ status: 400, body: { code: 'request/invalid-body', field: 'password' } });
    const path = await app.request('POST', `${API('a%00b')}/auth/sign-in`, { body: { email: 'a@b.c', password: 'x' } });
    expect(path).toMatchObject({ status: 400, body: { code: 'request/invalid-body', field: 'projectId' } });
    const user = await app.signUp(project.id);
    const query = await app.request('GET', `${API(project.id)}/events?sortBy=%00`, { token: user.accessToken });
    expect(query).toMatchObject({ status: 400, body: { code: 'request/invalid-body', field: 'sortBy' } });
  });

  it("answers headers over Node's limit in the Replyke shape, not with a bare 431", async () => {
    expect(await requestWithOversizedHeaders(app.url, '/admin/v1/projects')).toEqual({
      status: 431,
      contentType: 'application/json; charset=utf-8',
      body: { error: 'The request headers are too large.', code: 'request/headers-too-large' },
    });
  });
});
