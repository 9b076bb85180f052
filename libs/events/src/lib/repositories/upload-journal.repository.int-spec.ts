import { randomUUID } from 'node:crypto';
import { communityTable } from '@acme/community-schema';
import { CommunityTestDatabase, startCommunityDatabase } from '../../../test/event-fixtures';
import { EVENTS_MIGRATIONS } from '../../migrations';
import { UploadJournalRepository } from './upload-journal.repository';

describe('UploadJournalRepository', () => {
  let db: CommunityTestDatabase;
  let journal: UploadJournalRepository;
  beforeAll(async () => {
    db = await startCommunityDatabase('events-journal', [], EVENTS_MIGRATIONS);
    journal = new UploadJournalRepository(db.dataSource);
  }, 60000);
  afterAll(async () => db?.close());

  const age = (eventId: string) =>
    db.dataSource.query(
      `UPDATE ${communityTable('pending_uploads')} SET created_at = now() - interval '1 hour' WHERE event_id = $1`,
      [eventId],
    );
  const stale = () => journal.transaction((manager) => journal.lockStale(manager, 600));

  it('hands out rows older than the grace period, and deletes them by event', async () => {
    const project = await db.project();
    const [old, fresh] = [randomUUID(), randomUUID()];
    await journal.record(project, old, ['a', 'b']);
    await journal.record(project, fresh, ['c']);
    await age(old);
    expect(await stale()).toEqual([{ eventId: old, keys: ['a', 'b'] }]);
    await journal.transaction((manager) => journal.deleteEvents(manager, [old]));
    expect(await stale()).toEqual([]);
  });

  it('never deletes a row through another project', async () => {
    const [projectA, projectB] = [await db.project(), await db.project()];
    const eventId = randomUUID();
    await journal.record(projectA, eventId, ['k']);
    await age(eventId);
    await journal.delete(projectB, eventId);
    expect((await stale()).map((row) => row.eventId)).toContain(eventId);
    await journal.delete(projectA, eventId);
    expect((await stale()).map((row) => row.eventId)).not.toContain(eventId);
  });
});
