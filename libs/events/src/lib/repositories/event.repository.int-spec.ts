import { CommunityTestDatabase, newEvent, startCommunityDatabase } from '../../../test/event-fixtures';
import { EVENTS_MIGRATIONS } from '../../migrations';
import type { ListEventsQuery } from '../event-query';
import { EventRecord } from '../event.entity';
import { EventRepository } from './event.repository';

const ALL: ListEventsQuery = {
  page: 1,
  limit: 20,
  from: null,
  to: null,
  type: null,
  visibility: null,
  status: null,
  spaceId: null,
  userId: null,
  hostId: null,
  near: null,
  sortBy: 'startTime',
};

describe('EventRepository', () => {
  let db: CommunityTestDatabase;
  let repository: EventRepository;
  let projectA: string;
  let projectB: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    db = await startCommunityDatabase('events-events', [EventRecord], EVENTS_MIGRATIONS);
    repository = new EventRepository(db.dataSource);
    projectA = await db.project();
    projectB = await db.project();
    alice = await db.user(projectA);
    bob = await db.user(projectA);
  }, 60000);
  afterAll(async () => db?.close());

  const insert = async (projectId: string, userId: string, overrides: Record<string, unknown> = {}) => {
    const event = newEvent(projectId, userId, overrides);
    await repository.insert(db.dataSource.manager, event as Parameters<EventRepository['insert']>[1]);
    return event.id;
  };

  it('shows invite events to hosts and to keys (viewer null), not to other users', async () => {
    const id = await insert(projectA, alice, { visibility: 'invite' });
    expect(await repository.findVisible(projectA, id, alice)).toMatchObject({ id, status: 'active', goingCount: 0 });
    expect(await repository.findVisible(projectA, id, null)).toMatchObject({ id });
    expect(await repository.findVisible(projectA, id, bob)).toBeUndefined();
  });

  it('locks an event only for a viewer who may see it (the same rule as findVisible)', async () => {
    const id = await insert(projectA, alice, { visibility: 'invite' });
    const lock = (viewer: string | null) =>
      db.dataSource.transaction((manager) => repository.lockVisible(manager, projectA, id, viewer));
    expect(await lock(alice)).toMatchObject({ id });
    expect(await lock(null)).toMatchObject({ id });
    expect(await lock(bob)).toBeUndefined();
  });

  it('never returns, lists, locks, cancels or counts an event through another project', async () => {
    const carol = await db.user(projectB);
    const id = await insert(projectA, alice);
    const other = await insert(projectB, carol);
    expect(await repository.findVisible(projectB, id, null)).toBeUndefined();
    expect(await repository.findInProject(projectB, id)).toBeUndefined();
    expect(
      await db.dataSource.transaction((manager) => repository.lockVisible(manager, projectB, id, null)),
    ).toBeUndefined();
    const [listed] = await repository.listPage(projectA, null, ALL);
    expect(listed.map((event) => event.id)).toContain(id);
    expect(listed.map((event) => event.id)).not.toContain(other);
    await repository.markCancelled(projectB, id);
    await repository.shiftRsvpCount(db.dataSource.manager, projectB, id, null, 'going');
    expect(await repository.findInProject(projectA, id)).toMatchObject({ status: 'active', goingCount: 0 });
  });

  it('cancels and moves RSVP counts within the project', async () => {
    const id = await insert(projectA, alice);
    await repository.shiftRsvpCount(db.dataSource.manager, projectA, id, null, 'going');
    await repository.shiftRsvpCount(db.dataSource.manager, projectA, id, 'going', 'maybe');
    await repository.markCancelled(projectA, id);
    expect(await repository.findInProject(projectA, id)).toMatchObject({
      status: 'cancelled',
      goingCount: 0,
      maybeCount: 1,
      notGoingCount: 0,
    });
  });

  it('filters by radius and sorts by distance', async () => {
    const project = await db.project();
    const dave = await db.user(project);
    const paris = await insert(project, dave, {
      type: 'physical',
      url: null,
      location: { type: 'Point', coordinates: [2.35, 48.85] },
    });
    const versailles = await insert(project, dave, {
      type: 'physical',
      url: null,
      location: { type: 'Point', coordinates: [2.12, 48.8] },
    });
    await insert(project, dave, {
      type: 'physical',
      url: null,
      location: { type: 'Point', coordinates: [-0.13, 51.5] },
    });
    const [near, total] = await repository.listPage(project, null, {
      ...ALL,
      near: { latitude: 48.85, longitude: 2.35, radius: 30_000 },
      sortBy: 'distance',
    });
    expect(total).toBe(2);
    expect(near.map((event) => event.id)).toEqual([paris, versailles]);
    // A page past the end is empty and still carries the total (one statement answers both).
    expect(await repository.listPage(project, null, { ...ALL, page: 5, limit: 1 })).toEqual([[], 3]);
  });
});
