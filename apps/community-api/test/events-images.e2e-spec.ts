import sharp from 'sharp';
import { queryDb } from './support/db';
import { CommunityTestApp, TestProject, TestUser } from './support/community-app';
import {
  exactOptions,
  futureIso,
  images,
  listFilesRecursive,
  postMultipart,
  startEventsApp,
} from './support/events-fixtures';

const fields = (extra: Record<string, string> = {}) => ({
  title: 'Gallery night',
  startTime: futureIso(),
  type: 'online',
  url: 'https://x.example/live',
  ...extra,
});

jest.setTimeout(120_000);

describe('POST /events (multipart): cover and gallery images', () => {
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  let jpeg: Buffer;
  beforeAll(async () => {
    env = await startEventsApp({ IMAGE_MAX_PIXELS: '40000000' });
    t = env.t;
    project = await t.createProject(['files-images', 'spaces']);
    user = await t.signUp(project.id);
    jpeg = await images.jpeg(800, 600, { exif: true });
  });
  afterAll(async () => env?.close());

  const eventRows = async () =>
    Number((await queryDb<{ n: string }>(t.app.database.url, `SELECT count(*) AS n FROM community.events`))[0]?.n);
  const fileRows = async () =>
    Number((await queryDb<{ n: string }>(t.app.database.url, `SELECT count(*) AS n FROM community.event_files`))[0]?.n);
  /** Nothing written anywhere: no rows, no stored files, no staged uploads left behind. */
  async function expectNothingStored(before: { events: number; files: number; stored: number }) {
    expect(await eventRows()).toBe(before.events);
    expect(await fileRows()).toBe(before.files);
    expect((await listFilesRecursive(env.storageDir)).length).toBe(before.stored);
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);
  }
  const snapshot = async () => ({
    events: await eventRows(),
    files: await fileRows(),
    stored: (await listFilesRecursive(env.storageDir)).length,
  });

  it('accepts a gallery of exactly 10 images (the most allowed), in order', async () => {
    const image = await images.png(120, 120);
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'gallery.options': exactOptions() },
      Array.from({ length: 10 }, (_, i) => ({ field: 'gallery', name: `g${i}.png`, data: image, type: 'image/png' })),
    );
    expect(response.status).toBe(201);
    expect(
      response.body.files.map((file: { role: string; position: number }) => `${file.role}:${file.position}`),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `gallery:${i}`));
  });

  it('decodes, strips EXIF, resizes to every named variant and serves each rendition', async () => {
    const gallery = [await images.png(300, 300), await images.jpeg(1200, 400)];
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      {
        ...fields({
          location: JSON.stringify({ latitude: 10, longitude: 20 }),
          hostIds: JSON.stringify(['h1']),
          metadata: JSON.stringify({ a: 1 }),
          capacity: '12',
          allowMaybe: 'false',
        }),
        'cover.options': exactOptions(),
        'gallery.options': JSON.stringify({
          mode: 'aspect-ratio-width-based',
          aspectRatio: { width: 16, height: 9 },
          widths: { small: 160, large: 640 },
          format: 'jpeg',
          quality: 70,
        }),
      },
      [
        { field: 'cover', name: 'cover.jpg', data: jpeg, type: 'image/jpeg' },
        ...gallery.map((data, i) => ({ field: 'gallery', name: `g${i}.bin`, data })),
      ],
    );
    expect(response.status).toBe(201);
    const event = response.body;
    expect(event).toMatchObject({
      location: { type: 'Point', coordinates: [20, 10] },
      hostIds: [user.id, 'h1'],
      metadata: { a: 1 },
      capacity: 12,
      allowMaybe: false,
    });
    expect(event.files).toHaveLength(3);
    const [cover, first, second] = event.files;
    expect(cover).toMatchObject({
      role: 'cover',
      position: 0,
      originalName: 'cover.jpg',
      metadata: { originalFormat: 'jpeg', exifStripped: true, originalSize: jpeg.length },
    });
    expect(cover.original).toMatchObject({
      width: 800,
      height: 600,
      format: 'webp',
      size: expect.any(Number),
      url: expect.stringMatching(/^\/files\//),
    });
    expect(cover.variants.thumb).toMatchObject({ width: 100, height: 100, format: 'webp' });
    expect(cover.variants.card).toMatchObject({ width: 400, height: 300, format: 'webp' });
    expect(first).toMatchObject({ role: 'gallery', position: 0, originalName: 'g0.bin' });
    expect(first.variants.small).toMatchObject({ width: 160, height: 90, format: 'jpeg' });
    expect(second.variants.large).toMatchObject({ width: 640, height: 360, format: 'jpeg' });

    const served = await fetch(`${t.url}${cover.original.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(cover.original.size);
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 800, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('secret-exif-copyright'))).toBe(false);
    const thumb = await sharp(
      Buffer.from(await (await fetch(`${t.url}${cover.variants.thumb.url}`)).arrayBuffer()),
    ).metadata();
    expect(thumb).toMatchObject({ width: 100, height: 100 });
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);
  });

  it('keeps EXIF when stripExif is false and keeps the source format with format original', async () => {
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'cover.options': exactOptions({ stripExif: false, format: 'original' }) },
      [{ field: 'cover', name: 'c.jpg', data: jpeg }],
    );
    expect(response.status).toBe(201);
    const cover = response.body.files[0];
    expect(cover.original.format).toBe('jpeg');
    const bytes = Buffer.from(await (await fetch(`${t.url}${cover.original.url}`)).arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeDefined();
  });

  it.each([
    [
      'exact-dimensions',
      { mode: 'exact-dimensions', dimensions: { sq: { width: 120, height: 120 } } },
      { sq: [120, 120] },
    ],
    [
      'aspect-ratio-width-based',
      { mode: 'aspect-ratio-width-based', aspectRatio: { width: 4, height: 3 }, widths: { w: 200 } },
      { w: [200, 150] },
    ],
    [
      'aspect-ratio-height-based',
      { mode: 'aspect-ratio-height-based', aspectRatio: { width: 2, height: 1 }, heights: { h: 100 } },
      { h: [200, 100] },
    ],
    ['original-aspect (inside)', { mode: 'original-aspect', sizes: { md: 400 } }, { md: [400, 300] }],
    ['original-aspect (outside)', { mode: 'original-aspect', sizes: { md: 300 }, fit: 'outside' }, { md: [400, 300] }],
    [
      'multi-aspect-ratio',
      {
        mode: 'multi-aspect-ratio',
        aspectRatios: [
          { width: 1, height: 1 },
          { width: 16, height: 9 },
        ],
        sizes: { s: 160 },
      },
      { 's-1x1': [160, 160], 's-16x9': [160, 90] },
    ],
  ])('resizes in %s mode', async (_, options, expected) => {
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'gallery.options': JSON.stringify(options) },
      [
        { field: 'gallery', name: 'a.jpg', data: jpeg },
        { field: 'gallery', name: 'b.jpg', data: jpeg },
      ],
    );
    expect(response.status).toBe(201);
    for (const file of response.body.files) {
      const sizes = Object.fromEntries(
        Object.entries(file.variants as Record<string, { width: number; height: number }>).map(([name, v]) => [
          name,
          [v.width, v.height],
        ]),
      );
      expect(sizes).toEqual(expected);
    }
  });

  it('accepts an image of exactly 50 MB (the limit is inclusive) and one byte more is 413', async () => {
    const limit = 50 * 1024 * 1024;
    // A valid JPEG padded after its end-of-image marker: decoders stop at the marker, the upload counts every byte.
    const exactly = Buffer.concat([jpeg, Buffer.alloc(limit - jpeg.length, 0)]);
    expect(exactly.length).toBe(limit);
    const accepted = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'cover.options': exactOptions() },
      [{ field: 'cover', name: 'exactly-50mb.jpg', data: exactly }],
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body.files).toHaveLength(1);
    const before = await snapshot();
    const over = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'cover.options': exactOptions() },
      [{ field: 'cover', name: 'one-byte-over.jpg', data: Buffer.concat([exactly, Buffer.alloc(1)]) }],
    );
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ code: 'event/file-too-large', message: expect.stringContaining('one-byte-over.jpg') });
    await expectNothingStored(before);
  }, 120_000);

  it('answers 413 event/file-too-large naming the file, for a 51 MB upload, storing nothing', async () => {
    const before = await snapshot();
    const big = Buffer.alloc(51 * 1024 * 1024, 7);
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'gallery.options': exactOptions() },
      [
        { field: 'gallery', name: 'small.jpg', data: jpeg },
        { field: 'gallery', name: 'huge-photo.jpg', data: big },
      ],
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'event/file-too-large', message: expect.stringContaining('huge-photo.jpg') });
    await expectNothingStored(before);
  });

  it.each([
    ['a text file', 'notes.txt', async () => Buffer.from('just some text, not an image')],
    ['a truncated JPEG', 'broken.jpg', images.truncatedJpeg],
    ['a 30,000 x 30,000 PNG (decompression bomb)', 'bomb.png', async () => images.pngBomb()],
    ['an empty file', 'empty.jpg', async () => Buffer.alloc(0)],
    [
      'an SVG',
      'vector.svg',
      async () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
    ],
  ])('answers 422 event/invalid-image naming %s, storing nothing', async (_, name, make) => {
    const before = await snapshot();
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'cover.options': exactOptions(), 'gallery.options': exactOptions() },
      [
        { field: 'cover', name: 'fine.jpg', data: jpeg },
        { field: 'gallery', name, data: await make() },
      ],
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'event/invalid-image', message: expect.stringContaining(name) });
    await expectNothingStored(before);
  });

  it.each([
    ['cover without cover.options', {}, [{ field: 'cover', name: 'c.jpg' }], 'cover.options'],
    ['gallery without gallery.options', {}, [{ field: 'gallery', name: 'g.jpg' }], 'gallery.options'],
    ['options that are not JSON', { 'cover.options': '{mode:' }, [{ field: 'cover', name: 'c.jpg' }], 'cover.options'],
    [
      'an unknown mode',
      { 'cover.options': JSON.stringify({ mode: 'stretch' }) },
      [{ field: 'cover', name: 'c.jpg' }],
      'cover.options.mode',
    ],
    [
      'a size below 50',
      { 'cover.options': exactOptions({ dimensions: { t: { width: 10, height: 100 } } }) },
      [{ field: 'cover', name: 'c.jpg' }],
      'cover.options.dimensions.t.width',
    ],
    [
      'fit cover in original-aspect mode',
      { 'cover.options': JSON.stringify({ mode: 'original-aspect', sizes: { a: 100 }, fit: 'cover' }) },
      [{ field: 'cover', name: 'c.jpg' }],
      'cover.options.fit',
    ],
    [
      'quality 101',
      { 'cover.options': exactOptions({ quality: 101 }) },
      [{ field: 'cover', name: 'c.jpg' }],
      'cover.options.quality',
    ],
    [
      'two covers',
      { 'cover.options': exactOptions() },
      [
        { field: 'cover', name: 'a.jpg' },
        { field: 'cover', name: 'b.jpg' },
      ],
      'cover',
    ],
    [
      '11 gallery images',
      { 'gallery.options': exactOptions() },
      Array.from({ length: 11 }, (_, i) => ({ field: 'gallery', name: `${i}.jpg` })),
      'gallery',
    ],
    ['a file in an unknown field', {}, [{ field: 'avatar', name: 'a.jpg' }], 'avatar'],
    ['options without files', { 'cover.options': exactOptions() }, [], 'cover.options'],
    ['location that is not JSON', { location: '{lat' }, [], 'location'],
    ['hostIds that are not JSON', { hostIds: '[h1' }, [], 'hostIds'],
    ['a capacity that is not a number', { capacity: 'ten' }, [], 'capacity'],
    ['allowMaybe that is not a boolean', { allowMaybe: 'perhaps' }, [], 'allowMaybe'],
  ])('answers 400 event/invalid-body for %s, storing nothing', async (_, extra, parts, field) => {
    const before = await snapshot();
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), ...(extra as Record<string, string>) },
      parts.map((part) => ({ ...part, data: jpeg })),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'event/invalid-body', field });
    await expectNothingStored(before);
  });

  it('answers 400 for malformed multipart and a duplicated field', async () => {
    const broken = await fetch(`${t.url}/api/v6/${project.id}/api/v7/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ code: 'event/invalid-body' });
    const noBoundary = await fetch(`${t.url}/api/v6/${project.id}/api/v7/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'multipart/form-data' },
      body: 'whatever',
    });
    expect(noBoundary.status).toBe(400);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields())) form.append(k, v);
    form.append('title', 'again');
    const duplicated = await fetch(`${t.url}/api/v6/${project.id}/api/v7/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}` },
      body: form,
    });
    expect(duplicated.status).toBe(400);
    expect(await listFilesRecursive(env.uploadDir)).toEqual([]);
  });

  it('checks the bundle before the files: 403 event/files-images-bundle-required, even for a 51 MB file', async () => {
    const bare = await t.createProject([]);
    const member = await t.signUp(bare.id);
    const response = await postMultipart(
      t,
      bare.id,
      member.accessToken,
      { ...fields(), 'cover.options': exactOptions() },
      [{ field: 'cover', name: 'big.jpg', data: Buffer.alloc(51 * 1024 * 1024) }],
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: expect.any(String), code: 'event/files-images-bundle-required' });
  });

  it('checks the space before the files', async () => {
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields({ spaceId: '33333333-3333-4333-8333-333333333333' }), 'cover.options': exactOptions() },
      [{ field: 'cover', name: 'x.txt', data: Buffer.from('not an image') }],
    );
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('event/space-not-found');
  });

  it('validates multipart and JSON encodings to the same event', async () => {
    const shared = { title: 'Same', startTime: '2031-01-01T10:00:00.000Z', type: 'physical', address: 'Main St 1' };
    const json = await t.request('POST', `/api/v6/${project.id}/api/v7/events`, {
      token: user.accessToken,
      body: {
        ...shared,
        location: { latitude: 1.5, longitude: 2.5 },
        hostIds: ['x'],
        capacity: 3,
        allowMaybe: false,
        guestListVisible: false,
        metadata: { k: [1] },
      },
    });
    const multipart = await postMultipart(t, project.id, user.accessToken, {
      ...shared,
      location: '{"latitude":1.5,"longitude":2.5}',
      hostIds: '["x"]',
      capacity: '3',
      allowMaybe: 'false',
      guestListVisible: 'false',
      metadata: '{"k":[1]}',
    });
    const strip = (event: Record<string, unknown>) => ({
      ...event,
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
    });
    expect(json.status).toBe(201);
    expect(multipart.status).toBe(201);
    expect(strip(multipart.body)).toEqual(strip(json.body));
  });

  it('answers 404 for unknown or unsafe file paths', async () => {
    for (const path of ['/files/nope/missing.webp', '/files/..%2f..%2fetc%2fpasswd', '/files/a/../../x']) {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status).toBe(404);
    }
  });
});
