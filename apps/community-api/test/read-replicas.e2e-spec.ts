import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireTestReplica, TestReplica, waitFor } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { createEvent, futureIso } from './support/events-fixtures';

/**
 * Event lists and radius searches on a real streaming replica (DATABASE_READ_URLS): an event created while the
 * replica's replay is paused is read back at once by id (primary), but lists and radius searches do not show it
 * until replay resumes: they were answered by the replica.
 */
describe('event reads on a read replica', () => {
  let replica: TestReplica;
  let t: CommunityTestApp;
  let storage: string;
  let project: TestProject;
  let user: TestUser;

  beforeAll(async () => {
    replica = await acquireTestReplica('community_replica');
    storage = await mkdtemp(join(tmpdir(), 'replica-storage-'));
    // A lag limit far beyond the test: the paused replica keeps serving, so what it serves can be seen.
    t = await CommunityTestApp.start({
      env: {
        DATABASE_READ_URLS: replica.replicaUrl,
        DATABASE_MAX_REPLICA_LAG_MS: '600000',
        STORAGE_DIR: storage,
        UPLOAD_TMP_DIR: storage,
      },
      database: replica.database,
    });
    project = await t.createProject();
    user = await t.signUp(project.id);
  }, 120_000);

  afterAll(async () => {
    await replica?.onReplica('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await t?.close();
    await replica?.release();
    if (storage) await rm(storage, { recursive: true, force: true });
  });

  const paris = { latitude: 48.8606, longitude: 2.3376 };
  const titles = async (query: string) => {
    const response = await t.request('GET', `${API(project.id)}/events?${query}`, { token: user.accessToken });
    expect(response.status).toBe(200);
    return (response.body.data as { title: string }[]).map((event) => event.title);
  };
  const near = `latitude=${paris.latitude}&longitude=${paris.longitude}&radius=5000`;

  it('answers lists and radius searches from the replica, reads by id from the primary', async () => {
    expect(
      (
        await createEvent(t, project, user, {
          title: 'before',
          startTime: futureIso(),
          type: 'physical',
          location: paris,
        })
      ).status,
    ).toBe(201);
    await replica.caughtUp();
    await waitFor(async () => (await titles(near)).includes('before') || undefined, {
      what: 'the first event on the replica',
    });

    await replica.onReplica('SELECT pg_wal_replay_pause()');
    try {
      const created = await createEvent(t, project, user, {
        title: 'during',
        startTime: futureIso(),
        type: 'physical',
        location: paris,
      });
      expect(created.status).toBe(201);
      expect(
        (await t.request('GET', `${API(project.id)}/events/${created.body.id}`, { token: user.accessToken })).status,
      ).toBe(200);
      expect(await titles('limit=50')).toEqual(['before']);
      expect(await titles(near)).toEqual(['before']);
    } finally {
      await replica.onReplica('SELECT pg_wal_replay_resume()');
    }
    await replica.caughtUp();
    expect((await titles(near)).sort()).toEqual(['before', 'during']);
  });
});
