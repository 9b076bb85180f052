import { encodeHostile } from '@acme/platform-testing';
import fc from 'fast-check';
import { API, CommunityTestApp, JsonResponse, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';

const RUNS = 40;

/** A 4xx in the community wire shape, never a 5xx. */
function expectClientError(response: JsonResponse, allowed: number[] = [400]): void {
  if (!allowed.includes(response.status))
    throw new Error(`unexpected ${response.status}: ${JSON.stringify(response.body)}`);
  expect(response.body).toEqual({
    error: expect.any(String),
    code: expect.stringMatching(/^[a-z-]+\/[a-z-]+$/),
    ...(response.body?.field ? { field: expect.any(String) } : {}),
  });
}

const json = fc.jsonValue({ maxDepth: 3 });
const anyObject = fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 5 });
const mutated = (base: Record<string, unknown>) =>
  fc
    .record({ key: fc.constantFrom(...Object.keys(base), 'extra'), value: json })
    .map(({ key, value }) => ({ ...base, [key]: value }));
const printable = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-~+/= '.split('')),
  maxLength: 300,
});

describe('bad input never yields a 5xx or a partial write (property-based)', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  const count = async (table: string) =>
    Number((await queryDb<{ n: string }>(t.app.database.url, `SELECT count(*) AS n FROM community.${table}`))[0].n);

  beforeAll(async () => {
    t = await CommunityTestApp.start({
      env: { VERIFICATION_ATTEMPTS_PER_MINUTE: '100000', VERIFICATION_ATTEMPTS_PER_HOUR: '100000' },
    });
    project = await t.createProject(['push']);
    user = await t.signUp(project.id, { email: 'fixed@example.com', password: 'fixed-password' });
  });
  afterAll(async () => t?.close());

  it('POST /admin/v1/projects', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(json, anyObject, mutated({ name: 'ok', bundles: ['push'] })), async (body) => {
        const before = await count('projects');
        const response = await t.admin('POST', '/projects', body);
        if (response.status === 201) return;
        expectClientError(response);
        expect(await count('projects')).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('PATCH /admin/v1/projects/{id}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(json, mutated({ bundles: ['push'] })), async (body) => {
        const response = await t.admin('PATCH', `/projects/${project.id}`, body);
        if (response.status === 200) return;
        expectClientError(response);
      }),
      { numRuns: RUNS },
    );
    await t.admin('PATCH', `/projects/${project.id}`, { bundles: ['push'] });
  });

  it('POST auth/sign-up', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(json, anyObject, mutated({ email: 'new@example.com', password: 'long enough', name: 'n' })),
        async (body) => {
          const before = await count('users');
          const response = await t.request('POST', `${API(project.id)}/auth/sign-up`, { body });
          if (response.status === 201) return;
          expectClientError(response, [400, 409]);
          expect(await count('users')).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST auth/sign-in, request-new-access-token, sign-out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('sign-in', 'request-new-access-token', 'sign-out'),
        fc.oneof(json, mutated({ email: 'fixed@example.com', password: 'x' }), mutated({ refreshToken: 'rt_x' })),
        async (route, body) => {
          const before = await count('refresh_tokens');
          const response = await t.request('POST', `${API(project.id)}/auth/${route}`, { body });
          if (route === 'sign-out' && response.status === 200) return;
          expectClientError(response, [400, 401]);
          expect(await count('refresh_tokens')).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST auth/send-verification', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          json,
          mutated({ mode: 'code', tokenFormat: 'numeric', tokenLength: 6, redirectUrl: 'https://a.example' }),
        ),
        async (body) => {
          const before = await count('verification_tokens');
          const response = await t.request('POST', `${API(project.id)}/auth/send-verification`, {
            body,
            token: user.accessToken,
          });
          if (response.status === 200) return;
          expectClientError(response, [400, 429]);
          expect(await count('verification_tokens')).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST auth/verify-email and GET auth/verify-email-link', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(json, mutated({ token: 'abc' })), async (body) => {
        const response = await t.request('POST', `${API(project.id)}/auth/verify-email`, { body });
        expectClientError(response);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(printable, printable, async (token, redirect) => {
        const query = new URLSearchParams({ token, redirect }).toString();
        const response = await t.request('GET', `${API(project.id)}/auth/verify-email-link?${query}`);
        if (response.status === 302) {
          expect(response.headers.get('location')).toContain('verified=false');
          return;
        }
        expectClientError(response);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST and DELETE push-notifications/devices', async () => {
    const web = {
      platform: 'web',
      subscription: { endpoint: 'https://push.example.com/x', keys: { p256dh: 'a', auth: 'b' } },
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'DELETE'),
        fc.oneof(
          json,
          anyObject,
          mutated({ platform: 'ios', token: 't' }),
          mutated(web),
          mutated({ ...web.subscription }).map((subscription) => ({ platform: 'web', subscription })),
        ),
        async (method, body) => {
          const before = await count('push_devices');
          const response = await t.request(method, `${API(project.id)}/push-notifications/devices`, {
            body,
            token: user.accessToken,
          });
          if (response.status === 200) return;
          expectClientError(response, [400, 404]);
          // A top-level primitive too: the route's own code (route-body-codes.ts), never the app-wide one.
          if (response.status === 400) expect(response.body.code).toBe('push-device/invalid-body');
          expect(await count('push_devices')).toBe(before);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('malformed JSON and wrong content types', async () => {
    const routes = [
      'auth/sign-up',
      'auth/sign-in',
      'auth/verify-email',
      'auth/send-verification',
      'push-notifications/devices',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.string({ maxLength: 50 }),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml'),
        async (route, raw, type) => {
          const response = await t.request('POST', `${API(project.id)}/${route}`, {
            body: raw,
            token: user.accessToken,
            headers: { 'content-type': type },
          });
          if (route === 'auth/send-verification' && response.status === 200) return;
          expectClientError(response, [400, 401, 429]);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('arbitrary project ids and Authorization headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 60 }).filter((id) => id !== '.' && id !== '..'),
        async (id) => {
          const response = await t.request('POST', `${API(encodeHostile(id))}/auth/sign-in`, {
            body: { email: 'a@b.c', password: 'x' },
          });
          expectClientError(response, [404]);
          expect(response.body.code).toBe('project/not-found');
        },
      ),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(printable, fc.constantFrom('auth/me', 'push-notifications/devices'), async (header, route) => {
        const response = await t.request(route === 'auth/me' ? 'GET' : 'POST', `${API(project.id)}/${route}`, {
          headers: { authorization: header },
          body: route === 'auth/me' ? undefined : { platform: 'ios', token: 't' },
        });
        expectClientError(response, [401, 403]);
      }),
      { numRuns: RUNS },
    );
  });

  it('operator routes with arbitrary project ids and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 60 }).filter((id) => id !== '.' && id !== '..'),
        fc.constantFrom('GET /', 'PATCH /', 'GET /outbox', 'POST /push-notifications'),
        json,
        async (id, route, body) => {
          const [method, suffix] = route.split(' ');
          const response = await t.admin(
            method,
            `/projects/${encodeHostile(id)}${suffix === '/' ? '' : suffix}`,
            method === 'GET' ? undefined : body,
          );
          expectClientError(response, [400, 404]);
        },
      ),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(json, mutated({ userId: user.id, title: 't', body: 'b', data: {} })), async (body) => {
        const response = await t.admin('POST', `/projects/${project.id}/push-notifications`, body);
        if (response.status === 200) return;
        expectClientError(response, [400, 404]);
      }),
      { numRuns: RUNS },
    );
  });
});
