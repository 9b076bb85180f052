import fc from 'fast-check';
import { impossibleIsoDate } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, onlineEvent, startEventsApp } from './support/events-fixtures';

jest.setTimeout(120_000);

const impossibleDay = impossibleIsoDate().filter((day) => day >= '2031');

/** ISO datetimes are read strictly in both forms (issue 25 item 6). */
describe('community events: impossible dates', () => {
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

  const invalidStart = { status: 400, body: { code: 'event/invalid-body', field: 'startTime' } };

  it('refuses 2030-02-30T10:00:00Z and its local form with 400, as it refuses them in a time zone', async () => {
    expect(await createEvent(t, project, user, onlineEvent({ startTime: '2030-02-30T10:00:00Z' }))).toMatchObject(
      invalidStart,
    );
    expect(
      await createEvent(t, project, user, onlineEvent({ startTime: '2030-02-30T10:00:00', timezone: 'Europe/Paris' })),
    ).toMatchObject(invalidStart);
    for (const startTime of ['2030-04-31T10:00:00+02:00', '2030-05-01T24:00:00Z', '2030-05-01T10:60:00Z']) {
      expect(await createEvent(t, project, user, onlineEvent({ startTime }))).toMatchObject(invalidStart);
    }
    const listed = await t.request('GET', `${API(project.id)}/events?from=2030-02-30`, { token: user.accessToken });
    expect(listed.status).toBe(400);
  });

  it('refuses any impossible day in either form, never storing a rolled-over date', async () => {
    await fc.assert(
      fc.asyncProperty(impossibleDay, fc.boolean(), async (day, local) => {
        const body = local
          ? onlineEvent({ startTime: `${day}T10:00:00`, timezone: 'America/New_York' })
          : onlineEvent({ startTime: `${day}T10:00:00Z` });
        expect(await createEvent(t, project, user, body)).toMatchObject(invalidStart);
      }),
      { numRuns: 30 },
    );
  });

  it('still accepts 29 February in a leap year, in both forms', async () => {
    const utc = await createEvent(t, project, user, onlineEvent({ startTime: '2032-02-29T10:00:00Z' }));
    expect([utc.status, utc.body.startTime]).toEqual([201, '2032-02-29T10:00:00.000Z']);
    const local = await createEvent(
      t,
      project,
      user,
      onlineEvent({ startTime: '2032-02-29T10:00:00', timezone: 'Europe/London' }),
    );
    expect([local.status, local.body.startTime]).toEqual([201, '2032-02-29T10:00:00.000Z']);
  });
});
