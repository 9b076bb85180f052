import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventsSettings, UploadJournal } from '@acme/events';
import { queryDb } from './support/db';
import {
  exactOptions,
  futureIso,
  images,
  listFilesRecursive,
  postMultipart,
  startEventsApp,
} from './support/events-fixtures';

jest.setTimeout(120_000);

/**
 * A process that dies after storing an event's images but before the event commits leaves files nobody
 * references. The journal row written before the puts is deleted in the event's own transaction, so only such
 * abandoned creations keep one, and the sweeper deletes their files.
 */
describe('events: files of creations that never committed are swept', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  beforeAll(async () => {
    env = await startEventsApp({ EVENTS_UPLOAD_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => env?.close());

  const journalRows = () =>
    queryDb<{ event_id: string }>(env.t.app.database.url, 'SELECT event_id FROM community.pending_uploads');

  /** What persist() does up to the commit, then "dies": the journal row and the stored files stay. */
  async function abandonedCreation(projectId: string): Promise<string[]> {
    const journal = env.t.app.app.get(UploadJournal);
    const { storage } = env.t.app.app.get(EventsSettings);
    const eventId = randomUUID();
    const keys = ['original.webp', 'thumb.webp'].map(
      (name) => `${projectId}/events/${eventId}/${randomUUID()}/${name}`,
    );
    await journal.record(projectId, eventId, keys);
    const source = join(env.uploadDir, `${eventId}.bin`);
    await writeFile(source, 'image bytes');
    for (const key of keys) await storage.put(key, source, 'image/webp');
    return keys;
  }

  it('a committed event leaves no journal row, and sweeping keeps its files', async () => {
    const { t } = env;
    const project = await t.createProject(['files-images']);
    const user = await t.signUp(project.id);
    const fields = {
      title: 'Kept',
      startTime: futureIso(),
      type: 'online',
      url: 'https://x.example',
      'gallery.options': exactOptions(),
    };
    const created = await postMultipart(t, project.id, user.accessToken, fields, [
      { field: 'gallery', name: 'a.jpg', data: await images.jpeg(300, 200) },
    ]);
    expect(created.status).toBe(201);
    expect(await journalRows()).toEqual([]);
    const before = await listFilesRecursive(env.storageDir);
    expect(before.length).toBeGreaterThan(0);
    expect(await t.app.app.get(UploadJournal).sweep(0)).toBe(0);
    expect(await listFilesRecursive(env.storageDir)).toEqual(before);
  });

  it('deletes the files of an abandoned creation once its journal is older than the grace period, exactly once across sweepers', async () => {
    const project = await env.t.createProject(['files-images']);
    const kept = await listFilesRecursive(env.storageDir);
    const keys = [...(await abandonedCreation(project.id)), ...(await abandonedCreation(project.id))];
    expect(await listFilesRecursive(env.storageDir)).toHaveLength(kept.length + keys.length);
    const journal = env.t.app.app.get(UploadJournal);
    // Younger than the grace period: an upload may still be in flight, so nothing is touched.
    expect(await journal.sweep(3600)).toBe(0);
    expect(await journalRows()).toHaveLength(2);
    // Two instances sweeping at once: SKIP LOCKED gives each row to one of them.
    const deleted = await Promise.all([journal.sweep(0), journal.sweep(0)]);
    expect(deleted[0] + deleted[1]).toBe(keys.length);
    expect(await journalRows()).toEqual([]);
    expect((await listFilesRecursive(env.storageDir)).sort()).toEqual([...kept].sort());
  });
});
