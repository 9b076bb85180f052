import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CommunityTestApp, TestProject, TestUser } from './support/community-app';
import {
  exactOptions,
  futureIso,
  images,
  listFilesRecursive,
  postMultipart,
  startEventsApp,
} from './support/events-fixtures';

jest.setTimeout(120_000);

/** A local stand-in for an S3-compatible store (path-style PutObject, GetObject, DeleteObjects). */
function startFakeS3(): Promise<{
  server: Server;
  url: string;
  objects: Map<string, { body: Buffer; type: string }>;
  requests: string[];
}> {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://s3.local');
    const key = decodeURIComponent(url.pathname.replace(/^\/[^/]+\//, ''));
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const body = await read(request);
    if (request.method === 'PUT') {
      objects.set(key, { body, type: String(request.headers['content-type']) });
      response.writeHead(200, { etag: '"x"' }).end();
    } else if (request.method === 'GET') {
      const object = objects.get(key);
      if (!object) {
        response
          .writeHead(404, { 'content-type': 'application/xml' })
          .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
        return;
      }
      response.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length }).end(object.body);
    } else if (request.method === 'POST' && url.searchParams.has('delete')) {
      for (const match of body.toString().matchAll(/<Key>([^<]+)<\/Key>/g)) objects.delete(match[1] as string);
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0"?><DeleteResult></DeleteResult>');
    } else {
      response.writeHead(400).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, objects, requests }),
    ),
  );
}

describe('events with STORAGE_DRIVER=s3 (S3-compatible adapter against a local stand-in)', () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  let env: Awaited<ReturnType<typeof startEventsApp>>;
  let t: CommunityTestApp;
  let project: TestProject;
  let user: TestUser;
  beforeAll(async () => {
    s3 = await startFakeS3();
    env = await startEventsApp({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'events',
      S3_ENDPOINT: s3.url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'test',
      S3_SECRET_ACCESS_KEY: 'test-secret',
      S3_KEY_PREFIX: 'dev/',
    });
    t = env.t;
    project = await t.createProject(['files-images']);
    user = await t.signUp(project.id);
  });
  afterAll(async () => {
    await env?.close();
    s3?.server.close();
  });

  const fields = () => ({ title: 'S3', startTime: futureIso(), type: 'online', url: 'https://x.example' });

  it('puts the original and every variant in the bucket and serves them through /files', async () => {
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'cover.options': exactOptions() },
      [{ field: 'cover', name: 'c.jpg', data: await images.jpeg(300, 200) }],
    );
    expect(response.status).toBe(201);
    const cover = response.body.files[0];
    expect([...s3.objects.keys()].sort()).toEqual(
      ['original', 'thumb', 'card']
        .map((name) => `dev/${project.id}/events/${response.body.id}/${cover.id}/${name}.webp`)
        .sort(),
    );
    expect(s3.objects.get(`dev/${project.id}/events/${response.body.id}/${cover.id}/original.webp`)?.type).toBe(
      'image/webp',
    );
    const served = await fetch(`${t.url}${cover.variants.thumb.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).length).toBe(cover.variants.thumb.size);
    expect(await listFilesRecursive(env.storageDir)).toEqual([]);
  });

  it('puts nothing in the bucket when a later image of the request is invalid', async () => {
    const before = s3.objects.size;
    const response = await postMultipart(
      t,
      project.id,
      user.accessToken,
      { ...fields(), 'gallery.options': exactOptions() },
      [
        { field: 'gallery', name: 'ok.jpg', data: await images.jpeg(300, 200) },
        { field: 'gallery', name: 'bad.jpg', data: Buffer.from('not an image') },
      ],
    );
    expect(response.status).toBe(422);
    expect(s3.objects.size).toBe(before);
  });
});
