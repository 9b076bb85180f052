import { CommunityTestDatabase, newEvent, startCommunityDatabase } from '../../../test/event-fixtures';
import { EVENTS_MIGRATIONS } from '../../migrations';
import { EventRsvp } from '../event-rsvp.entity';
import { EventRecord } from '../event.entity';
import { EventRepository } from './event.repository';
import { RsvpRepository } from './rsvp.repository';

describe('RsvpRepository', () => {
  let db: CommunityTestDatabase;
  let rsvps: RsvpRepository;
  let projectA: string;
  let projectB: string;
  let eventId: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    db = await startCommunityDatabase('events-rsvps', [EventRecord, EventRsvp], EVENTS_MIGRATIONS);
    rsvps = new RsvpRepository(db.dataSource);
    projectA = await db.project();
    projectB = await db.project();
    alice = await db.user(projectA);
    bob = await db.user(projectA);
    const event = newEvent(projectA, alice);
    await new EventRepository(db.dataSource).insert(
      db.dataSource.manager,
      event as Parameters<EventRepository['insert']>[1],
    );
    eventId = event.id;
  }, 60000);
  afterAll(async () => db?.close());

  const manager = () => db.dataSource.manager;

  it('upserts, reads and pages RSVPs in the order they were made', async () => {
    await rsvps.upsert(manager(), projectA, eventId, alice, 'going');
    await rsvps.upsert(manager(), projectA, eventId, bob, 'maybe');
    await rsvps.upsert(manager(), projectA, eventId, alice, 'not_going');
    expect(await rsvps.findStatus(manager(), projectA, eventId, alice)).toBe('not_going');
    const [page, total] = await rsvps.guestPage(projectA, eventId, { page: 1, limit: 1, status: null });
    expect(total).toBe(2);
    expect(page.map((row) => row.userId)).toEqual([alice]);
    const [maybes] = await rsvps.guestPage(projectA, eventId, { page: 1, limit: 10, status: 'maybe' });
    expect(maybes.map((row) => row.userId)).toEqual([bob]);
  });

  it('never reads, pages or deletes an RSVP through another project', async () => {
    await rsvps.upsert(manager(), projectA, eventId, bob, 'going');
    expect(await rsvps.findStatus(manager(), projectB, eventId, bob)).toBeNull();
    expect(await rsvps.guestPage(projectB, eventId, { page: 1, limit: 10, status: null })).toEqual([[], 0]);
    await rsvps.delete(manager(), projectB, eventId, bob);
    expect(await rsvps.findStatus(manager(), projectA, eventId, bob)).toBe('going');
    await rsvps.delete(manager(), projectA, eventId, bob);
    expect(await rsvps.findStatus(manager(), projectA, eventId, bob)).toBeNull();
  });
});
