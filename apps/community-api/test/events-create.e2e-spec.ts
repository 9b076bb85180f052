import { queryDb } from './support/db';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, futureIso, onlineEvent, startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

describe('POST /events (JSON): fields, rules and error order of the spec', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject(['spaces', 'files-images']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => env?.close());

  it('creates an online event with defaults, the creator as userId and first host, and rsvpCounts inline', async () => {
    const startTime = futureIso();
    const response = await createEvent(
      t,
      project,
      user,
      onlineEvent({ startTime, hostIds: ['co-host-1'], metadata: { tier: 'gold' } }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      projectId: project.id,
      userId: user.id,
      title: 'Launch party',
      description: null,
      startTime,
      endTime: null,
      timezone: null,
      type: 'online',
      url: 'https://meet.example.com/x',
      venueName: null,
      address: null,
      location: null,
      spaceId: null,
      visibility: 'public',
      status: 'active',
      allowMaybe: true,
      guestListVisible: true,
      capacity: null,
      hostIds: [user.id, 'co-host-1'],
      metadata: { tier: 'gold' },
      rsvpCounts: { going: 0, maybe: 0, not_going: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(response.body).not.toHaveProperty('files');
  });

  it('stores location as a GeoJSON point and keeps every optional field', async () => {
    const response = await createEvent(t, project, user, {
      title: 'Hybrid meetup',
      startTime: '2030-05-01T18:00:00+02:00',
      endTime: '2030-05-01T21:00:00+02:00',
      timezone: 'Europe/Paris',
      type: 'hybrid',
      url: 'https://stream.example.com/live',
      venueName: 'Le Lieu',
      address: '1 rue de Rivoli, Paris',
      location: { latitude: 48.8606, longitude: 2.3376 },
      visibility: 'invite',
      capacity: 25,
      allowMaybe: false,
      guestListVisible: false,
      description: 'Bring a friend',
      hostIds: [user.id],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      startTime: '2030-05-01T16:00:00.000Z',
      endTime: '2030-05-01T19:00:00.000Z',
      timezone: 'Europe/Paris',
      location: { type: 'Point', coordinates: [2.3376, 48.8606] },
      visibility: 'invite',
      capacity: 25,
      allowMaybe: false,
      guestListVisible: false,
      hostIds: [user.id],
    });
    const [row] = await queryDb(
      t.app.database.url,
      `SELECT location, earth_point IS NOT NULL AS indexed FROM community.events WHERE id = $1`,
      [response.body.id],
    );
    expect(row).toEqual({ location: { type: 'Point', coordinates: [2.3376, 48.8606] }, indexed: true });
  });

  it.each([
    ['physical with address only', { type: 'physical', address: '10 Downing St' }],
    ['physical with location only', { type: 'physical', location: { latitude: 51.5, longitude: -0.12 } }],
    [
      'hybrid with url and location',
      { type: 'hybrid', url: 'https://x.example', location: { latitude: 0, longitude: 0 } },
    ],
  ])('accepts %s', async (_, fields) => {
    const response = await createEvent(t, project, user, { title: 'T', startTime: futureIso(), ...fields });
    expect(response.status).toBe(201);
  });

  it.each([
    ['no title', { title: undefined }, 'title'],
    ['an empty title', { title: '' }, 'title'],
    ['a 301-character title', { title: 'x'.repeat(301) }, 'title'],
    ['no startTime', { startTime: undefined }, 'startTime'],
    ['a startTime that is not ISO', { startTime: 'tomorrow' }, 'startTime'],
    ['no type', { type: undefined }, 'type'],
    ['an unknown type', { type: 'virtual' }, 'type'],
    ['an online event without url', { url: undefined }, 'url'],
    ['a physical event without address or location', { type: 'physical', url: undefined }, 'address'],
    ['a hybrid event without url', { type: 'hybrid', url: undefined, address: 'here' }, 'url'],
    ['a hybrid event without address or location', { type: 'hybrid' }, 'address'],
    ['members visibility without spaceId', { visibility: 'members' }, 'spaceId'],
    ['an unknown visibility', { visibility: 'secret' }, 'visibility'],
    ['capacity 0', { capacity: 0 }, 'capacity'],
    ['a fractional capacity', { capacity: 2.5 }, 'capacity'],
    ['a string capacity in JSON', { capacity: '5' }, 'capacity'],
    ['allowMaybe as a string in JSON', { allowMaybe: 'yes' }, 'allowMaybe'],
    ['hostIds that are not an array', { hostIds: 'abc' }, 'hostIds'],
    ['metadata that is an array', { metadata: [1, 2] }, 'metadata'],
    ['metadata over 1 MB', { metadata: { blob: 'x'.repeat(1024 * 1024) } }, 'metadata'],
    ['a latitude out of range', { type: 'physical', location: { latitude: 91, longitude: 0 } }, 'location.latitude'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an endTime before startTime', { startTime: '2030-01-02T00:00:00Z', endTime: '2030-01-01T00:00:00Z' }, 'endTime'],
    ['a spaceId that is not a UUID', { spaceId: 'space-1' }, 'spaceId'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['userId from an end user for someone else', { userId: '00000000-0000-4000-8000-000000000000' }, 'userId'],
  ])('answers 400 event/invalid-body for %s', async (_, change, field) => {
    const response = await createEvent(t, project, user, onlineEvent(change));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: 'event/invalid-body', field });
  });

  it('counts the title in characters: 300 emoji are stored and returned whole, 301 refused', async () => {
    const title = '🎉'.repeat(300);
    const created = await createEvent(t, project, user, onlineEvent({ title }));
    expect({ status: created.status, title: created.body.title }).toEqual({ status: 201, title });
    const refused = await createEvent(t, project, user, onlineEvent({ title: `${title}🎉` }));
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'event/invalid-body', field: 'title', error: 'title must be a string of 1 to 300 characters' },
    });
  });

  it('accepts a local startTime with timezone, stored and answered in UTC; without timezone an offset is required', async () => {
    const created = await createEvent(
      t,
      project,
      user,
      onlineEvent({ startTime: '2030-05-01T18:00:00', timezone: 'America/New_York' }),
    );
    expect({ status: created.status, startTime: created.body.startTime, timezone: created.body.timezone }).toEqual({
      status: 201,
      startTime: '2030-05-01T22:00:00.000Z',
      timezone: 'America/New_York',
    });
    const refused = await createEvent(t, project, user, onlineEvent({ startTime: '2030-05-01T18:00:00' }));
    expect(refused).toMatchObject({ status: 400, body: { code: 'event/invalid-body', field: 'startTime' } });
  });

  it('accepts metadata just under 1 MB', async () => {
    const response = await createEvent(
      t,
      project,
      user,
      onlineEvent({ metadata: { blob: 'x'.repeat(1024 * 1024 - 20) } }),
    );
    expect(response.status).toBe(201);
  });

  it('lets a service or master key create for an existing user of the project only', async () => {
    const other = await t.createProject([]);
    const stranger = await t.signUp(other.id);
    for (const key of [project.serviceKey, project.masterKey]) {
      const created = await t.request('POST', `${API(project.id)}/events`, {
        token: key,
        body: onlineEvent({ userId: user.id }),
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userId: user.id, hostIds: [user.id] });
    }
    const missing = await t.request('POST', `${API(project.id)}/events`, {
      token: project.serviceKey,
      body: onlineEvent(),
    });
    expect(missing.body).toMatchObject({ code: 'event/invalid-body', field: 'userId' });
    const foreign = await t.request('POST', `${API(project.id)}/events`, {
      token: project.serviceKey,
      body: onlineEvent({ userId: stranger.id }),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 'event/invalid-body', field: 'userId' });
  });

  it('checks auth first: 401 without credentials, 403 with a bad token or another project key, even for a bad body', async () => {
    const other = await t.createProject([]);
    const none = await t.request('POST', `${API(project.id)}/events`, { body: { nonsense: true } });
    expect(none).toMatchObject({ status: 401, body: { code: 'auth/unauthorized' } });
    const bad = await t.request('POST', `${API(project.id)}/events`, { token: 'not-a-jwt', body: { nonsense: true } });
    expect(bad).toMatchObject({ status: 403, body: { code: 'auth/forbidden' } });
    const foreignKey = await t.request('POST', `${API(project.id)}/events`, {
      token: other.serviceKey,
      body: onlineEvent(),
    });
    expect(foreignKey.status).toBe(403);
  });

  it('checks the body before the bundles, and the spaces bundle before the space', async () => {
    const bare = await t.createProject([]);
    const member = await t.signUp(bare.id);
    const spaceId = '11111111-1111-4111-8111-111111111111';
    const invalid = await createEvent(t, bare, member, onlineEvent({ spaceId, url: undefined }));
    expect(invalid.body).toMatchObject({ code: 'event/invalid-body' });
    const noBundle = await createEvent(t, bare, member, onlineEvent({ spaceId }));
    expect(noBundle).toMatchObject({
      status: 403,
      body: { code: 'event/spaces-bundle-required', error: expect.any(String) },
    });
  });

  it('scopes an event to a space: 404 unknown space, 403 unless an active member, 201 for a member', async () => {
    const space = await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Runners' });
    expect(space.status).toBe(201);
    const unknown = await createEvent(
      t,
      project,
      user,
      onlineEvent({ spaceId: '22222222-2222-4222-8222-222222222222' }),
    );
    expect(unknown).toMatchObject({
      status: 404,
      body: { code: 'event/space-not-found', error: expect.stringMatching(/space/i) },
    });
    const notMember = await createEvent(
      t,
      project,
      user,
      onlineEvent({ spaceId: space.body.id, visibility: 'members' }),
    );
    expect(notMember).toMatchObject({
      status: 403,
      body: { code: 'event/not-space-member', error: expect.stringMatching(/member/i) },
    });
    for (const status of ['pending', 'banned']) {
      await t.admin('PUT', `/projects/${project.id}/spaces/${space.body.id}/members/${user.id}`, { status });
      const refused = await createEvent(t, project, user, onlineEvent({ spaceId: space.body.id }));
      expect(refused.body.code).toBe('event/not-space-member');
    }
    await t.admin('PUT', `/projects/${project.id}/spaces/${space.body.id}/members/${user.id}`, { status: 'active' });
    const created = await createEvent(t, project, user, onlineEvent({ spaceId: space.body.id, visibility: 'members' }));
    expect(created).toMatchObject({ status: 201, body: { spaceId: space.body.id, visibility: 'members' } });
  });

  it('does not see a space of another project', async () => {
    const other = await t.createProject(['spaces']);
    const space = await t.admin('POST', `/projects/${other.id}/spaces`, { name: 'Elsewhere' });
    const response = await createEvent(t, project, user, onlineEvent({ spaceId: space.body.id }));
    expect(response).toMatchObject({
      status: 404,
      body: { code: 'event/space-not-found', error: expect.stringMatching(/space/i) },
    });
  });

  it('answers 404 project/not-found for an unknown project', async () => {
    const response = await t.request('POST', `${API('00000000-0000-4000-8000-000000000000')}/events`, {
      token: user.accessToken,
      body: onlineEvent(),
    });
    expect(response).toMatchObject({ status: 404, body: { code: 'project/not-found' } });
  });
});
