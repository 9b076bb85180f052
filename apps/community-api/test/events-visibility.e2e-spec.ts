import { queryDb } from './support/db';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, onlineEvent, startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

/**
 * Visibility is one rule (docs/community-api.md#events): every route that takes an event id answers an event the
 * caller cannot see as GET does, 404 `event/not-found`, and changes nothing. The attacker knows the event id
 * (ids are public in image URLs) and holds an ordinary account of the project.
 */
describe('an event the caller cannot see is 404 on every route, and untouched', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let host: TestUser;
  let invitee: TestUser;
  let attacker: TestUser;
  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject(['spaces']);
    [host, invitee, attacker] = await Promise.all([t.signUp(project.id), t.signUp(project.id), t.signUp(project.id)]);
  });
  afterAll(async () => env?.close());

  const call = (method: string, path: string, user: TestUser | string, body?: unknown) =>
    t.request(method, `${API(project.id)}/events${path}`, {
      token: typeof user === 'string' ? user : user.accessToken,
      body,
    });
  const stored = async (eventId: string) =>
    (
      await queryDb<{ status: string; going_count: number; rsvps: number }>(
        t.app.database.url,
        `SELECT status, going_count, (SELECT count(*)::int FROM community.event_rsvps r WHERE r.event_id = e.id) AS rsvps
           FROM community.events e WHERE e.id = $1`,
        [eventId],
      )
    )[0];
  const expectNotFound = (response: { status: number; body: unknown }) =>
    expect(response).toMatchObject({ status: 404, body: { error: expect.any(String), code: 'event/not-found' } });

  it('invite-only event: RSVP, withdraw, guest list and cancel by a non-invitee are all 404; no seat is taken', async () => {
    const event = (await createEvent(t, project, host, onlineEvent({ visibility: 'invite', capacity: 1 }))).body;
    expectNotFound(await call('GET', `/${event.id}`, attacker));
    for (const status of ['going', 'maybe', 'not_going'])
      expectNotFound(await call('POST', `/${event.id}/rsvp`, attacker, { status }));
    expectNotFound(await call('DELETE', `/${event.id}/rsvp`, attacker));
    expectNotFound(await call('GET', `/${event.id}/rsvps`, attacker));
    expectNotFound(await call('POST', `/${event.id}/cancel`, attacker));
    // Still unseen, still active, and the one seat is still free for the real invitee.
    expectNotFound(await call('GET', `/${event.id}`, attacker));
    expect(await stored(event.id)).toEqual({ status: 'active', going_count: 0, rsvps: 0 });
    const invited = await call('POST', `/${event.id}/rsvp`, project.serviceKey, {
      status: 'going',
      userId: invitee.id,
    });
    expect(invited).toMatchObject({ status: 200, body: { rsvpCounts: { going: 1 } } });
    expect((await call('POST', `/${event.id}/rsvp`, invitee, { status: 'maybe' })).status).toBe(200);
  });

  it('cancel of an invisible event is 404 (no 403 event/not-host confirming it exists) and leaves it active', async () => {
    const event = (await createEvent(t, project, host, onlineEvent({ visibility: 'invite' }))).body;
    expectNotFound(await call('POST', `/${event.id}/cancel`, attacker));
    expect((await stored(event.id)).status).toBe('active');
    // The same answer as for an id that never existed.
    expectNotFound(await call('POST', '/00000000-0000-4000-8000-000000000000/cancel', attacker));
    // Someone who can see it but does not host it learns only that: 403.
    const visible = (await createEvent(t, project, host, onlineEvent())).body;
    expect(await call('POST', `/${visible.id}/cancel`, attacker)).toMatchObject({
      status: 403,
      body: { code: 'event/not-host' },
    });
  });

  it('an invisible event answers 404 whatever its state (cancelled, closed), never 409', async () => {
    const cancelled = (await createEvent(t, project, host, onlineEvent({ visibility: 'invite' }))).body;
    expect((await call('POST', `/${cancelled.id}/cancel`, host)).status).toBe(200);
    expectNotFound(await call('POST', `/${cancelled.id}/rsvp`, attacker, { status: 'going' }));
    expectNotFound(await call('DELETE', `/${cancelled.id}/rsvp`, attacker));
    expect(await call('POST', `/${cancelled.id}/rsvp`, host, { status: 'going' })).toMatchObject({
      status: 409,
      body: { code: 'event/cancelled' },
    });
  });

  it('members event: a non-member user gets 404 on RSVP and cancel; a key acting for one gets 403', async () => {
    const space = (await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Closed club' })).body;
    await t.admin('PUT', `/projects/${project.id}/spaces/${space.id}/members/${host.id}`, { status: 'active' });
    const event = (await createEvent(t, project, host, onlineEvent({ spaceId: space.id, visibility: 'members' }))).body;
    expectNotFound(await call('POST', `/${event.id}/rsvp`, attacker, { status: 'going' }));
    expectNotFound(await call('POST', `/${event.id}/cancel`, attacker));
    expect(await stored(event.id)).toEqual({ status: 'active', going_count: 0, rsvps: 0 });
    expect(
      await call('POST', `/${event.id}/rsvp`, project.masterKey, { status: 'going', userId: attacker.id }),
    ).toMatchObject({ status: 403, body: { code: 'event/not-space-member' } });
  });
});
