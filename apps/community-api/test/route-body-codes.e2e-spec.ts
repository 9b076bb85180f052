import fc from 'fast-check';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';

/** Issue 31 item 1: each route answers the spec's own code for its own bad input, never the app-wide one. */
describe('route-level invalid-body codes (docs/decisions.md, route-level body codes)', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;

  beforeAll(async () => {
    t = await CommunityTestApp.start({
      env: { VERIFICATION_ATTEMPTS_PER_MINUTE: '100000', VERIFICATION_ATTEMPTS_PER_HOUR: '100000' },
    });
    project = await t.createProject(['push']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => t?.close());

  const send = (method: string, route: string, raw: string, type = 'application/json') =>
    t.request(method, `${API(project.id)}/${route}`, {
      body: raw,
      token: user.accessToken,
      headers: { 'content-type': type },
    });

  const bad = ['{', '{"title":', 'not json', '1', '"a string"', 'null', 'true', '[]', '[1,2]', '{}'];
  const routes: Array<[string, string, string]> = [
    ['POST', 'events', 'event/invalid-body'],
    ['POST', 'events/00000000-0000-4000-8000-000000000000/rsvp', 'event/invalid-body'],
    ['POST', 'push-notifications/devices', 'push-device/invalid-body'],
    ['DELETE', 'push-notifications/devices', 'push-device/invalid-body'],
  ];

  it.each(routes)('%s %s: malformed JSON, primitives and wrong shapes answer 400 %s', async (method, route, code) => {
    for (const raw of bad) {
      const response = await send(method, route, raw);
      expect({ raw, status: response.status, code: response.body.code }).toEqual({ raw, status: 400, code });
      expect(response.body).toEqual({
        error: expect.any(String),
        code,
        ...(response.body.field ? { field: expect.any(String) } : {}),
      });
    }
  });

  it('any text sent as JSON to the event and device routes answers their own code (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value) ?? ''),
        ),
        async ([method, route, code], raw) => {
          const response = await send(method, route, raw);
          expect(response.status).toBe(400);
          expect(response.body.code).toBe(code);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('text PostgreSQL cannot hold: in the body the route code, in a path parameter the app-wide one', async () => {
    const body = await send('POST', 'events', '{"title":"a\\u0000b"}');
    expect(body.body).toMatchObject({ code: 'event/invalid-body', field: 'title' });
    const param = await send('POST', 'events/a%00b/rsvp', '{"status":"going"}');
    expect(param.body).toMatchObject({ code: 'request/invalid-body', field: 'eventId' });
  });

  it('other routes keep the app-wide codes for a body that is not JSON', async () => {
    const signIn = await send('POST', 'auth/sign-in', '{');
    expect(signIn.status).toBe(400);
    expect(signIn.body.code).toBe('request/invalid-json');
  });

  describe('verify-email', () => {
    const verify = (body: unknown) => t.request('POST', `${API(project.id)}/auth/verify-email`, { body });

    it.each([
      ['empty', ''],
      ['257 characters', 'a'.repeat(257)],
      ['10 000 characters', 'b'.repeat(10_000)],
    ])('a token that is %s was never issued: 400 auth/invalid-or-expired-token', async (_, token) => {
      const response = await verify({ token });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.any(String), code: 'auth/invalid-or-expired-token' });
    });

    it('any string token that matches no issued one answers auth/invalid-or-expired-token (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 400 }), async (token) => {
          const response = await verify({ token });
          expect(response.status).toBe(400);
          expect(response.body.code).toBe('auth/invalid-or-expired-token');
        }),
        { numRuns: 40 },
      );
    });

    it.each([
      ['missing', {}],
      ['a number', { token: 42 }],
      ['null', { token: null }],
      ['an array', { token: ['a'] }],
    ])('a token that is %s is a malformed body: 400 request/invalid-body', async (_, body) => {
      const response = await verify(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringContaining('token'), code: 'request/invalid-body' });
    });
  });
});
