import { waitFor } from '@acme/platform-testing';
import { queryDb } from './support/db';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, futureIso, onlineEvent, startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

describe('RSVPs: set, withdraw, closing, maybe, capacity under concurrency', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let host: TestUser;
  let guest: TestUser;
  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject(['spaces']);
    [host, guest] = await Promise.all([t.signUp(project.id), t.signUp(project.id)]);
  });
  afterAll(async () => env?.close());

  const rsvp = (eventId: string, user: TestUser | string, body: unknown, method = 'POST') =>
    t.request(method, `${API(project.id)}/events/${eventId}/rsvp`, {
      token: typeof user === 'string' ? user : user.accessToken,
      body,
    });
  const newEvent = async (extra: Record<string, unknown> = {}) =>
    (await createEvent(t, project, host, onlineEvent(extra))).body as { id: string };

  it('moves between going, maybe and not_going with consistent counts, and withdraws idempotently', async () => {
    const event = await newEvent();
    expect((await rsvp(event.id, guest, { status: 'going' })).body.rsvpCounts).toEqual({
      going: 1,
      maybe: 0,
      not_going: 0,
    });
    expect((await rsvp(event.id, guest, { status: 'going' })).body.rsvpCounts).toEqual({
      going: 1,
      maybe: 0,
      not_going: 0,
    });
    expect((await rsvp(event.id, host, { status: 'maybe' })).body.rsvpCounts).toEqual({
      going: 1,
      maybe: 1,
      not_going: 0,
    });
    expect((await rsvp(event.id, guest, { status: 'not_going' })).body.rsvpCounts).toEqual({
      going: 0,
      maybe: 1,
      not_going: 1,
    });
    const withdrawn = await rsvp(event.id, guest, undefined, 'DELETE');
    expect(withdrawn).toMatchObject({
      status: 200,
      body: { id: event.id, rsvpCounts: { going: 0, maybe: 1, not_going: 0 } },
    });
    expect((await rsvp(event.id, guest, undefined, 'DELETE')).body.rsvpCounts).toEqual({
      going: 0,
      maybe: 1,
      not_going: 0,
    });
    const fetched = await t.request('GET', `${API(project.id)}/events/${event.id}`, { token: guest.accessToken });
    expect(fetched.body.rsvpCounts).toEqual({ going: 0, maybe: 1, not_going: 0 });
  });

  it('lets a service or master key RSVP for a user of the project', async () => {
    const event = await newEvent();
    const set = await rsvp(event.id, project.serviceKey, { status: 'going', userId: guest.id });
    expect(set.body.rsvpCounts.going).toBe(1);
    const withdrawn = await rsvp(event.id, project.masterKey, { userId: guest.id }, 'DELETE');
    expect(withdrawn.body.rsvpCounts.going).toBe(0);
    const noUser = await rsvp(event.id, project.serviceKey, { status: 'going' });
    expect(noUser).toMatchObject({ status: 400, body: { code: 'event/invalid-body', field: 'userId' } });
  });

  it.each([
    ['no status', {}],
    ['an unknown status', { status: 'interested' }],
    ['an unknown field', { status: 'going', plusOne: true }],
    ['a userId from an end user', { status: 'going', userId: '00000000-0000-4000-8000-000000000000' }],
    ['an array body', [1]],
  ])('answers 400 event/invalid-body for %s', async (_, body) => {
    const event = await newEvent();
    const response = await rsvp(event.id, guest, body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('event/invalid-body');
  });

  it('answers 404 event/not-found for unknown ids, malformed ids and events of another project', async () => {
    const other = await t.createProject([]);
    const stranger = await t.signUp(other.id);
    const foreign = (await createEvent(t, other, stranger, onlineEvent())).body;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', foreign.id]) {
      const response = await rsvp(id, guest, { status: 'going' });
      expect(response).toMatchObject({ status: 404, body: { code: 'event/not-found' } });
    }
  });

  it('refuses maybe when allowMaybe is false (409 event/maybe-disabled)', async () => {
    const event = await newEvent({ allowMaybe: false });
    const response = await rsvp(event.id, guest, { status: 'maybe' });
    expect(response).toMatchObject({ status: 409, body: { code: 'event/maybe-disabled' } });
    expect((await rsvp(event.id, guest, { status: 'going' })).status).toBe(200);
  });

  it('closes RSVPs at startTime (409 event/rsvp-closed), for setting and withdrawing', async () => {
    const past = await newEvent({ startTime: new Date(Date.now() - 60_000).toISOString() });
    expect(await rsvp(past.id, guest, { status: 'going' })).toMatchObject({
      status: 409,
      body: { code: 'event/rsvp-closed' },
    });
    const soon = await newEvent({ startTime: new Date(Date.now() + 1500).toISOString() });
    expect((await rsvp(soon.id, guest, { status: 'going' })).status).toBe(200);
    await waitFor(async () => (await rsvp(soon.id, host, { status: 'going' })).status === 409, {
      timeoutMs: 15000,
      intervalMs: 200,
      what: 'RSVPs to close',
    });
    expect((await rsvp(soon.id, guest, undefined, 'DELETE')).body.code).toBe('event/rsvp-closed');
  });

  it('refuses RSVPs to a cancelled event (409 event/cancelled); only hosts or keys cancel', async () => {
    const event = await newEvent();
    const byGuest = await t.request('POST', `${API(project.id)}/events/${event.id}/cancel`, {
      token: guest.accessToken,
    });
    expect(byGuest).toMatchObject({ status: 403, body: { code: 'event/not-host' } });
    const cancelled = await t.request('POST', `${API(project.id)}/events/${event.id}/cancel`, {
      token: host.accessToken,
    });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(await rsvp(event.id, guest, { status: 'going' })).toMatchObject({
      status: 409,
      body: { code: 'event/cancelled' },
    });
  });

  it('requires active space membership to RSVP to a members event (a non-member does not see it: 404)', async () => {
    const space = (await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Club' })).body;
    await t.admin('PUT', `/projects/${project.id}/spaces/${space.id}/members/${host.id}`, { status: 'active' });
    const event = await newEvent({ spaceId: space.id, visibility: 'members' });
    expect(await rsvp(event.id, guest, { status: 'going' })).toMatchObject({
      status: 404,
      body: { code: 'event/not-found' },
    });
    expect(await rsvp(event.id, project.serviceKey, { status: 'going', userId: guest.id })).toMatchObject({
      status: 403,
      body: { code: 'event/not-space-member' },
    });
    await t.admin('PUT', `/projects/${project.id}/spaces/${space.id}/members/${guest.id}`, { status: 'active' });
    expect((await rsvp(event.id, guest, { status: 'going' })).status).toBe(200);
  });

  it('enforces capacity: the last seat is taken once, and leaving frees it', async () => {
    const event = await newEvent({ capacity: 1 });
    expect((await rsvp(event.id, guest, { status: 'going' })).status).toBe(200);
    expect(await rsvp(event.id, host, { status: 'going' })).toMatchObject({
      status: 409,
      body: { code: 'event/full' },
    });
    expect((await rsvp(event.id, host, { status: 'maybe' })).status).toBe(200);
    expect((await rsvp(event.id, guest, { status: 'going' })).status).toBe(200);
    await rsvp(event.id, guest, { status: 'not_going' });
    expect((await rsvp(event.id, host, { status: 'going' })).body.rsvpCounts).toEqual({
      going: 1,
      maybe: 0,
      not_going: 1,
    });
  });

  it('lets exactly 10 of 50 users go when they RSVP at once for a capacity of 10', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => t.signUp(project.id)));
    const event = await newEvent({ capacity: 10, startTime: futureIso() });
    const responses = await Promise.all(users.map((user) => rsvp(event.id, user, { status: 'going' })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(40);
    expect(
      responses.filter((response) => response.status === 409).every((response) => response.body.code === 'event/full'),
    ).toBe(true);
    const [row] = await queryDb<{ going_count: number; stored: string }>(
      t.app.database.url,
      `SELECT e.going_count, (SELECT count(*) FROM community.event_rsvps r WHERE r.event_id = e.id AND r.status = 'going') AS stored FROM community.events e WHERE e.id = $1`,
      [event.id],
    );
    expect(row).toEqual({ going_count: 10, stored: '10' });

    const mixed = await newEvent({ capacity: 10 });
    await Promise.all(
      users.map((user, i) => rsvp(mixed.id, user, { status: (['going', 'maybe', 'not_going'] as const)[i % 3] })),
    );
    await Promise.all(users.slice(0, 25).map((user) => rsvp(mixed.id, user, undefined, 'DELETE')));
    const [counts] = await queryDb<Record<string, string>>(
      t.app.database.url,
      `SELECT e.going_count::text AS going, e.maybe_count::text AS maybe, e.not_going_count::text AS not_going,
              (SELECT count(*) FILTER (WHERE status = 'going') FROM community.event_rsvps WHERE event_id = e.id)::text AS going_rows,
              (SELECT count(*) FILTER (WHERE status = 'maybe') FROM community.event_rsvps WHERE event_id = e.id)::text AS maybe_rows,
              (SELECT count(*) FILTER (WHERE status = 'not_going') FROM community.event_rsvps WHERE event_id = e.id)::text AS not_going_rows
       FROM community.events e WHERE e.id = $1`,
      [mixed.id],
    );
    expect(counts?.['going']).toBe(counts?.['going_rows']);
    expect(counts?.['maybe']).toBe(counts?.['maybe_rows']);
    expect(counts?.['not_going']).toBe(counts?.['not_going_rows']);
    expect(Number(counts?.['going'])).toBeLessThanOrEqual(10);
  });
});

describe('guest list: GET .../events/{id}/rsvps', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let host: TestUser;
  let guest: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject([]);
    [host, guest, other] = await Promise.all([t.signUp(project.id), t.signUp(project.id), t.signUp(project.id)]);
  });
  afterAll(async () => env?.close());

  const guests = (eventId: string, token: string, query = '') =>
    t.request('GET', `${API(project.id)}/events/${eventId}/rsvps${query}`, { token });

  it('lists named RSVPs with a status filter and paging when the guest list is visible', async () => {
    const event = (await createEvent(t, project, host, onlineEvent())).body;
    await t.request('POST', `${API(project.id)}/events/${event.id}/rsvp`, {
      token: guest.accessToken,
      body: { status: 'going' },
    });
    await t.request('POST', `${API(project.id)}/events/${event.id}/rsvp`, {
      token: host.accessToken,
      body: { status: 'maybe' },
    });
    const all = await guests(event.id, other.accessToken);
    expect(all.status).toBe(200);
    expect(all.body.data.map((row: { userId: string }) => row.userId).sort()).toEqual([guest.id, host.id].sort());
    expect(all.body.pagination).toMatchObject({ totalItems: 2, hasMore: false });
    const going = await guests(event.id, other.accessToken, '?status=going&limit=1');
    expect(going.body.data).toEqual([
      { userId: guest.id, status: 'going', createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect((await guests(event.id, other.accessToken, '?status=yes')).body.code).toBe('event/invalid-query');
  });

  it('hides the guest list from non-hosts when guestListVisible is false (403 event/guest-list-hidden)', async () => {
    const event = (await createEvent(t, project, host, onlineEvent({ guestListVisible: false }))).body;
    expect(await guests(event.id, other.accessToken)).toMatchObject({
      status: 403,
      body: { code: 'event/guest-list-hidden' },
    });
    expect((await guests(event.id, host.accessToken)).status).toBe(200);
    expect((await guests(event.id, project.serviceKey)).status).toBe(200);
    expect((await guests('00000000-0000-4000-8000-000000000000', host.accessToken)).status).toBe(404);
  });
});
