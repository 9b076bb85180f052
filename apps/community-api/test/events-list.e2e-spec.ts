import { Client } from 'pg';
import { EventQueryService } from '@acme/events';
import { toListEventsQuery } from '../src/events/dto/list-events.request.dto';
import { queryDb } from './support/db';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
/** About `km` kilometres north of Paris (1° of latitude ≈ 111.2 km). */
const north = (km: number) => ({ latitude: PARIS.latitude + km / 111.2, longitude: PARIS.longitude });

describe('GET /events: paging, time windows, filters, visibility and radius search', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<string, string> = {};
  const list = (query: string, token: string = alice.accessToken) =>
    t.request('GET', `${API(project.id)}/events?${query}`, { token });

  beforeAll(async () => {
    env = await startEventsApp();
    t = env.t;
    project = await t.createProject(['spaces']);
    [alice, bob] = await Promise.all([t.signUp(project.id), t.signUp(project.id)]);
    const at = (day: number) => `2031-03-${String(day).padStart(2, '0')}T12:00:00.000Z`;
    const make = async (name: string, user: TestUser, body: Record<string, unknown>) => {
      const response = await createEvent(t, project, user, { title: name, ...body });
      if (response.status !== 201) throw new Error(JSON.stringify(response.body));
      ids[name] = response.body.id;
    };
    await make('near1', alice, { startTime: at(1), type: 'physical', location: north(1) });
    await make('near5', bob, { startTime: at(2), type: 'physical', location: north(5) });
    await make('far50', alice, { startTime: at(3), type: 'physical', location: north(50) });
    await make('online', bob, { startTime: at(4), type: 'online', url: 'https://x.example', hostIds: [alice.id] });
    await make('invite', bob, { startTime: at(5), type: 'online', url: 'https://x.example', visibility: 'invite' });
    const space = (await t.admin('POST', `/projects/${project.id}/spaces`, { name: 'Crew' })).body;
    ids['space'] = space.id;
    await t.admin('PUT', `/projects/${project.id}/spaces/${space.id}/members/${bob.id}`, { status: 'active' });
    await make('members', bob, {
      startTime: at(6),
      type: 'online',
      url: 'https://x.example',
      visibility: 'members',
      spaceId: space.id,
    });
  });
  afterAll(async () => env?.close());

  const titles = (response: { body: { data: { title: string }[] } }) => response.body.data.map((event) => event.title);

  it('lists visible events in start order with pagination', async () => {
    const first = await list('limit=2');
    expect(first.status).toBe(200);
    expect(titles(first)).toEqual(['near1', 'near5']);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 2, totalPages: 2, totalItems: 4, hasMore: true });
    const second = await list('limit=2&page=2');
    expect(titles(second)).toEqual(['far50', 'online']);
    expect(second.body.pagination.hasMore).toBe(false);
    expect(second.body.data[0]).toMatchObject({
      rsvpCounts: { going: 0, maybe: 0, not_going: 0 },
      location: { type: 'Point' },
    });
  });

  it('hides invite and members events from others, shows them to hosts, members and keys', async () => {
    expect(titles(await list('limit=100'))).not.toEqual(expect.arrayContaining(['invite']));
    expect(titles(await list('limit=100', bob.accessToken))).toEqual([
      'near1',
      'near5',
      'far50',
      'online',
      'invite',
      'members',
    ]);
    expect((await list('limit=100', project.serviceKey)).body.pagination.totalItems).toBe(6);
    const hidden = await t.request('GET', `${API(project.id)}/events/${ids['members']}`, { token: alice.accessToken });
    expect(hidden).toMatchObject({ status: 404, body: { code: 'event/not-found' } });
    await t.admin('PUT', `/projects/${project.id}/spaces/${ids['space']}/members/${alice.id}`, { status: 'active' });
    expect(
      (await t.request('GET', `${API(project.id)}/events/${ids['members']}`, { token: alice.accessToken })).status,
    ).toBe(200);
    await t.admin('PUT', `/projects/${project.id}/spaces/${ids['space']}/members/${alice.id}`, { status: 'banned' });
  });

  it('filters by time window, type, creator, host and space', async () => {
    expect(titles(await list('from=2031-03-02T00:00:00Z&to=2031-03-04T00:00:00Z'))).toEqual(['near5', 'far50']);
    expect(titles(await list('type=online'))).toEqual(['online']);
    expect(titles(await list(`userId=${alice.id}`))).toEqual(['near1', 'far50']);
    expect(titles(await list(`hostId=${alice.id}`))).toEqual(['near1', 'far50', 'online']);
    expect(titles(await list(`spaceId=${ids['space']}`, bob.accessToken))).toEqual(['members']);
    expect(titles(await list('status=cancelled'))).toEqual([]);
  });

  it('finds events within a radius in metres, optionally nearest first', async () => {
    const near = (radius: number, extra = '') =>
      list(`latitude=${PARIS.latitude}&longitude=${PARIS.longitude}&radius=${radius}${extra}`);
    expect(titles(await near(500))).toEqual([]);
    expect(titles(await near(2000))).toEqual(['near1']);
    expect(titles(await near(10_000))).toEqual(['near1', 'near5']);
    expect(titles(await near(100_000, '&sortBy=distance'))).toEqual(['near1', 'near5', 'far50']);
    expect(titles(await near(4900))).toEqual(['near1']);
    expect(titles(await near(5100))).toEqual(['near1', 'near5']);
  });

  it.each([
    'limit=0',
    'limit=101',
    'page=0',
    'page=abc',
    'from=yesterday',
    'from=2031-01-02&to=2031-01-01',
    'type=virtual',
    'latitude=10',
    'latitude=10&longitude=10',
    'latitude=91&longitude=0&radius=10',
    'latitude=0&longitude=0&radius=-1',
    'radius=abc&latitude=0&longitude=0',
    'sortBy=distance',
    'spaceId=nope',
    'userId=nope',
    'unknown=1',
    'limit=1&limit=2',
  ])('answers 400 event/invalid-query for %s', async (query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'event/invalid-query', error: expect.any(String) });
  });

  it('answers the radius query from the GiST index (EXPLAIN)', async () => {
    await queryDb(
      t.app.database.url,
      `INSERT INTO community.events (project_id, user_id, title, start_time, type, location, visibility, allow_maybe, guest_list_visible, host_ids)
       SELECT $1, $2::uuid, 'bulk ' || g, now() + g * interval '1 minute', 'physical',
              jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(-180 + random() * 360, -80 + random() * 160)),
              'public', true, true, ARRAY[$2::text]
       FROM generate_series(1, 20000) g`,
      [project.id, alice.id],
    );
    await queryDb(t.app.database.url, 'ANALYZE community.events');
    const service = t.app.app.get(EventQueryService);
    const actor = { projectId: project.id, bundles: [], kind: 'user' as const, userId: alice.id };
    const { text: sql, parameters } = service.listStatement(
      actor,
      toListEventsQuery({ latitude: '48.85', longitude: '2.35', radius: '5000' }),
    );
    const client = new Client({ connectionString: t.app.database.url });
    await client.connect();
    try {
      const plan = (await client.query(`EXPLAIN ${sql}`, parameters)).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('events_earth_point_idx');
    } finally {
      await client.end();
    }
  });
});
