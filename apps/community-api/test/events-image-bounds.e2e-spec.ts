import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { RenditionPool } from '@acme/events';
import { CommunityTestApp, TestProject, TestUser } from './support/community-app';
import { queryDb } from './support/db';
import { futureIso, images, listFilesRecursive, postMultipart, startEventsApp } from './support/events-fixtures';

jest.setTimeout(180_000);

const fields = (options: Record<string, string>) => ({
  title: 'Bounded images',
  startTime: futureIso(),
  type: 'online',
  url: 'https://x.example/live',
  ...options,
});

/** A 1x1 grey PNG written by hand: 67 bytes, the kind of file that asked for a 50x50000 variant (issue 25). */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 128]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('POST /events: image output bounded by pixels (issue 25 item 2)', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  beforeAll(async () => {
    env = await startEventsApp({ IMAGE_CONCURRENCY: '2', IMAGE_MAX_REQUEST_PIXELS: '200000000' });
    t = env.t;
    project = await t.createProject(['files-images']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => env?.close());

  const storedFiles = async () => (await listFilesRecursive(env.storageDir)).length;
  const eventCount = async () =>
    Number((await queryDb<{ n: string }>(t.app.database.url, 'SELECT count(*) AS n FROM community.events'))[0]?.n);
  const post = (options: Record<string, string>, files: { field: string; data: Buffer; name?: string }[]) =>
    postMultipart(
      t,
      project.id,
      user.accessToken,
      fields(options),
      files.map((file, i) => ({
        field: file.field,
        name: file.name ?? `f${i}.png`,
        data: file.data,
        type: 'image/png',
      })),
    );

  it('refuses a 1:1000 aspect ratio on a tiny PNG with a 400 before any rendition is stored', async () => {
    const png = tinyPng();
    expect(png.length).toBeLessThan(117);
    const before = { events: await eventCount(), stored: await storedFiles() };
    const response = await post(
      {
        'cover.options': JSON.stringify({
          mode: 'aspect-ratio-width-based',
          aspectRatio: { width: 1, height: 1000 },
          widths: { tall: 50 },
        }),
      },
      [{ field: 'cover', data: png }],
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'event/invalid-body' });
    expect((response.body as { error: string }).error).toContain('1:20');
    expect({ events: await eventCount(), stored: await storedFiles() }).toEqual(before);
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);
  });

  it.each([
    ['a derived height past 10000 within 1:20', { width: 1, height: 20 }, { tall: 600 }],
    ['the most elongated ratio at the largest size', { width: 20, height: 1 }, { wide: 10000 }],
  ])('refuses %s', async (_, aspectRatio, heightsOrWidths) => {
    const mode = aspectRatio.width > aspectRatio.height ? 'aspect-ratio-height-based' : 'aspect-ratio-width-based';
    const key = mode === 'aspect-ratio-height-based' ? 'heights' : 'widths';
    const response = await post({ 'cover.options': JSON.stringify({ mode, aspectRatio, [key]: heightsOrWidths }) }, [
      { field: 'cover', data: tinyPng() },
    ]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'event/invalid-body', field: 'cover.options' });
    expect((response.body as { error: string }).error).toContain('at most 10000');
  });

  it('does not enlarge: a 10000x10000 rendition of a tiny file comes out at the source size, quickly', async () => {
    const started = Date.now();
    const response = await post(
      {
        'cover.options': JSON.stringify({
          mode: 'exact-dimensions',
          format: 'png',
          dimensions: { huge: { width: 10000, height: 10000 } },
        }),
      },
      [{ field: 'cover', data: tinyPng() }],
    );
    const elapsed = Date.now() - started;
    expect(response.status).toBe(201);
    const file = (response.body as { files: { original: object; variants: Record<string, object> }[] }).files[0];
    expect(file?.original).toMatchObject({ width: 1, height: 1 });
    expect(file?.variants['huge']).toMatchObject({ width: 1, height: 1 });
    expect(elapsed).toBeLessThan(2_000);
  });

  it('letterboxes contain to its box (its contract) and never past 10000 a side', async () => {
    const response = await post(
      {
        'cover.options': JSON.stringify({
          mode: 'exact-dimensions',
          fit: 'contain',
          dimensions: { box: { width: 400, height: 100 } },
        }),
      },
      [{ field: 'cover', data: await images.png(100, 100) }],
    );
    expect(response.status).toBe(201);
    const file = (response.body as { files: { variants: Record<string, object> }[] }).files[0];
    expect(file?.variants['box']).toMatchObject({ width: 400, height: 100 });
  });

  it('shrinks a source longer than 10000 px to 10000 on its stored original', async () => {
    const wide = await sharp({ create: { width: 12000, height: 20, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const response = await post(
      {
        'cover.options': JSON.stringify({ mode: 'original-aspect', fit: 'outside', sizes: { strip: 5000 } }),
      },
      [{ field: 'cover', data: wide }],
    );
    expect(response.status).toBe(201);
    const file = (response.body as { files: { original: object; variants: Record<string, object> }[] }).files[0];
    expect(file?.original).toMatchObject({ width: 10000, height: 17 });
    // outside would keep 12000x20 (no enlargement to cover 5000x5000); past 10000 it fits inside 10000x10000.
    expect(file?.variants['strip']).toMatchObject({ width: 10000, height: 17 });
  });

  const ladder = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, 500 * (i + 1)]));
  const tenRatios = Array.from({ length: 10 }, (_, i) => ({ width: 10, height: 10 - i }));
  const multi = JSON.stringify({ mode: 'multi-aspect-ratio', aspectRatios: tenRatios, sizes: ladder });

  it.each([
    ['2000x1500 JPEGs', () => images.jpeg(2000, 1500)],
    ['1x1 PNGs (each rendition costs its floor)', async () => tinyPng()],
  ])('refuses 11 images x 10 ratios x 20 sizes of %s with a 400 before any work', async (_, make) => {
    const data = await make();
    const pool = t.app.app.get(RenditionPool);
    const run = jest.spyOn(pool, 'run');
    const before = { events: await eventCount(), stored: await storedFiles() };
    const started = Date.now();
    const response = await post({ 'cover.options': multi, 'gallery.options': multi }, [
      { field: 'cover', data },
      ...Array.from({ length: 10 }, () => ({ field: 'gallery', data })),
    ]);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'event/invalid-body', field: 'gallery.options' });
    expect((response.body as { error: string }).error).toMatch(/at most 200000000 per request/);
    expect(run).not.toHaveBeenCalled();
    run.mockRestore();
    expect(elapsed).toBeLessThan(5_000);
    expect({ events: await eventCount(), stored: await storedFiles() }).toEqual(before);
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);
  });

  it('runs every image job of concurrent requests through one pool of IMAGE_CONCURRENCY', async () => {
    const pool = t.app.app.get(RenditionPool);
    expect(pool.concurrency).toBe(2);
    let peak = 0;
    let jobs = 0;
    const original = pool.run.bind(pool);
    const run = jest.spyOn(pool, 'run').mockImplementation((priority, job) =>
      original(priority, async () => {
        jobs += 1;
        peak = Math.max(peak, pool.active);
        return job();
      }),
    );
    const photo = await images.jpeg(600, 400);
    const options = JSON.stringify({
      mode: 'original-aspect',
      sizes: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`v${i}`, 50 * (i + 1)])),
    });
    const responses = await Promise.all(
      Array.from({ length: 3 }, () =>
        post({ 'gallery.options': options }, [
          { field: 'gallery', data: photo, name: 'a.jpg' },
          { field: 'gallery', data: photo, name: 'b.jpg' },
        ]),
      ),
    );
    run.mockRestore();
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    // 3 requests x 2 images x (1 decode + 7 renditions), never more than 2 at once.
    expect(jobs).toBe(48);
    expect(peak).toBe(2);
  });
});
