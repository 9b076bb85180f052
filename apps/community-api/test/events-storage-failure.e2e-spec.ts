import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventsSettings, LocalDiskStorage } from '@acme/events';
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

/** Local storage whose puts start failing after `failAfter` successful ones (a store going away mid-request). */
class FlakyStorage extends LocalDiskStorage {
  puts = 0;
  failAfter = Infinity;

  override async put(key: string, sourcePath: string): Promise<void> {
    this.puts += 1;
    if (this.puts > this.failAfter) throw new Error('storage unavailable');
    return super.put(key, sourcePath);
  }
}

describe('events: a storage failure mid-request leaves nothing behind', () => {
  const root = mkdtempSync(join(tmpdir(), 'events-flaky-'));
  const storage = new FlakyStorage(root, '');
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  beforeAll(async () => {
    env = await startEventsApp({}, (builder) =>
      builder.overrideProvider(EventsSettings).useValue({
        storage,
        users: { userExists: async () => true },
        maxImagePixels: 100_000_000,
        maxRequestPixels: 300_000_000,
        imageConcurrency: 2,
        uploadSweep: { intervalSeconds: 0, graceSeconds: 3600 },
      } satisfies EventsSettings),
    );
  });
  afterAll(async () => {
    await env?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 500 without a stored object, event row or staged file when the 5th put fails', async () => {
    const { t } = env;
    const project = await t.createProject(['files-images']);
    const user = await t.signUp(project.id);
    const jpeg = await images.jpeg(300, 200);
    const fields = {
      title: 'Flaky',
      startTime: futureIso(),
      type: 'online',
      url: 'https://x.example',
      'gallery.options': exactOptions(),
    };
    storage.failAfter = 4;
    const failed = await postMultipart(
      t,
      project.id,
      user.accessToken,
      fields,
      [0, 1, 2].map((i) => ({ field: 'gallery', name: `${i}.jpg`, data: jpeg })),
    );
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: 'Internal server error', code: 'server/internal-error' });
    expect(await listFilesRecursive(root)).toEqual([]);
    expect(await queryDb(t.app.database.url, 'SELECT id FROM community.events')).toEqual([]);
    // The request cleaned up after itself, so it leaves no journal row for the sweeper either.
    expect(await queryDb(t.app.database.url, 'SELECT event_id FROM community.pending_uploads')).toEqual([]);
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);

    storage.failAfter = Infinity;
    const ok = await postMultipart(t, project.id, user.accessToken, fields, [
      { field: 'gallery', name: 'a.jpg', data: jpeg },
    ]);
    expect(ok.status).toBe(201);
    expect(await listFilesRecursive(root)).toHaveLength(3);
  });
});
