import { queryDb } from './support/db';
import { CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

describe('operator spaces API', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject(['spaces']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => env?.close());

  it('creates a space and sets, then changes, a membership', async () => {
    const space = await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Readers' });
    expect(space).toMatchObject({
      status: 201,
      body: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), projectId: project.id, name: 'Readers' },
    });
    for (const status of ['pending', 'active', 'banned']) {
      const member = await t.admin('PUT', `/projects/${project.id}/spaces/${space.body.id}/members/${user.id}`, {
        status,
      });
      expect(member).toMatchObject({ status: 200, body: { spaceId: space.body.id, userId: user.id, status } });
    }
    const rows = await queryDb(t.app.database.url, 'SELECT status FROM community.space_members WHERE space_id = $1', [
      space.body.id,
    ]);
    expect(rows).toEqual([{ status: 'banned' }]);
  });

  it('requires the operator token', async () => {
    const none = await t.request('POST', `/admin/v1/projects/${project.id}/spaces`, { body: { name: 'x' } });
    expect(none.status).toBe(401);
    const wrong = await t.request('POST', `/admin/v1/projects/${project.id}/spaces`, {
      body: { name: 'x' },
      token: 'wrong-token-0123456789',
    });
    expect(wrong.status).toBe(401);
  });

  it('answers 404 for an unknown project, space or user, and for a user or space of another project', async () => {
    const other = await t.createProject(['spaces']);
    const stranger = await t.signUp(other.id);
    const foreignSpace = (await t.admin('POST', `/projects/${other.id}/spaces`, { name: 'Theirs' })).body;
    const space = (await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Ours' })).body;
    expect(
      (await t.admin('POST', '/projects/00000000-0000-4000-8000-000000000000/spaces', { name: 'x' })).body.code,
    ).toBe('project/not-found');
    const cases = [
      [space.id, stranger.id, 'user/not-found'],
      [space.id, 'not-a-user', 'user/not-found'],
      [foreignSpace.id, user.id, 'event/space-not-found'],
      ['not-a-space', user.id, 'event/space-not-found'],
    ];
    for (const [spaceId, userId, code] of cases) {
      const response = await t.admin('PUT', `/projects/${project.id}/spaces/${spaceId}/members/${userId}`, {
        status: 'active',
      });
      expect(response).toMatchObject({ status: 404, body: { code } });
    }
  });

  it.each([
    ['POST', 'spaces', {}],
    ['POST', 'spaces', { name: '' }],
    ['POST', 'spaces', { name: 'x', extra: 1 }],
    ['PUT', 'members', { status: 'owner' }],
    ['PUT', 'members', {}],
  ])('answers 400 for a bad %s %s body', async (method, kind, body) => {
    const space = (await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'S' })).body;
    const path =
      kind === 'spaces'
        ? `/projects/${project.id}/spaces`
        : `/projects/${project.id}/spaces/${space.id}/members/${user.id}`;
    const response = await t.admin(method, path, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});
