import { randomUUID } from 'node:crypto';
import { CommunityTestDatabase, newEvent, startCommunityDatabase } from '../../../test/event-fixtures';
import { EVENTS_MIGRATIONS } from '../../migrations';
import { EventFile } from '../event-file.entity';
import { EventRecord } from '../event.entity';
import { EventFileRepository } from './event-file.repository';
import { EventRepository } from './event.repository';

describe('EventFileRepository', () => {
  let db: CommunityTestDatabase;
  beforeAll(async () => {
    db = await startCommunityDatabase('events-files', [EventRecord, EventFile], EVENTS_MIGRATIONS);
  }, 60000);
  afterAll(async () => db?.close());

  it("finds the files of a project's events only", async () => {
    const files = new EventFileRepository(db.dataSource);
    const events = new EventRepository(db.dataSource);
    const [projectA, projectB] = [await db.project(), await db.project()];
    const alice = await db.user(projectA);
    const event = newEvent(projectA, alice);
    await events.insert(db.dataSource.manager, event as Parameters<EventRepository['insert']>[1]);
    const image = { key: 'k', width: 1, height: 1, size: 1, format: 'webp' };
    const row = {
      id: randomUUID(),
      projectId: projectA,
      eventId: event.id,
      role: 'cover' as const,
      position: 0,
      originalName: 'a.jpg',
      original: image,
      variants: {},
      metadata: { originalFormat: 'jpeg', originalSize: 1, exifStripped: true, processingTime: 1 },
    };
    expect(await files.insertMany(db.dataSource.manager, [row])).toHaveLength(1);
    expect(await files.insertMany(db.dataSource.manager, [])).toEqual([]);
    expect((await files.findForEvents(projectA, [event.id])).map((file) => file.id)).toEqual([row.id]);
    expect(await files.findForEvents(projectB, [event.id])).toEqual([]);
    expect(await files.findForEvents(projectA, [])).toEqual([]);
  });
});
