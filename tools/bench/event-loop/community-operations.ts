/** community-api: an event with a 10-image gallery x 20 named variants, and 20 concurrent sign-ups. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { freePort, localUrl, SERVICE_NODE_FLAGS, tsEntry, waitForHealth } from '../support/processes';
import { photo } from '../community-events/photo';
import { expectJson, ServiceContext, ServiceUnderTest } from './operation';

const ADMIN_TOKEN = randomBytes(16).toString('hex');
const IMAGES = 10;
const VARIANTS = 20;
const SIGN_UPS = 20;
/** 20 named variants, the documented maximum, of sizes a gallery would ask for. */
const GALLERY_OPTIONS = {
  mode: 'exact-dimensions',
  dimensions: Object.fromEntries(
    Array.from({ length: VARIANTS }, (_, i) => [`v${i}`, { width: 100 + i * 60, height: 75 + i * 45 }]),
  ),
};

export async function startCommunityApi(context: ServiceContext): Promise<ServiceUnderTest> {
  const database = await createBenchDatabase('bench_event_loop_community');
  const prefix = benchRedisPrefix('bench:event-loop:community');
  const work = mkdtempSync(join(tmpdir(), 'bench-event-loop-community-'));
  context.cleanups.push(
    () => database.drop(),
    () => deleteRedisPrefix(prefix),
    async () => rmSync(work, { recursive: true, force: true }),
  );
  const port = await freePort();
  context.processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/community-api/src/main.ts')], {
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    COMMUNITY_AUTH_SECRET: randomBytes(32).toString('hex'),
    STORAGE_DIR: join(work, 'storage'),
    UPLOAD_TMP_DIR: work,
    VERIFICATION_ATTEMPTS_PER_MINUTE: '1000000000',
    VERIFICATION_ATTEMPTS_PER_HOUR: '1000000000',
    VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR: '1000000000',
    SIGN_IN_ATTEMPTS_PER_MINUTE: '1000000000',
    // The bench measures the stall of 20 sign-ups from one address, not the per-address limit (5/min).
    SIGN_UPS_PER_ADDRESS_PER_MINUTE: '1000000000',
    SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000000000',
  });
  const base = localUrl(port);
  await waitForHealth(base, 'the community API', 180_000);
  const project = await expectJson(
    `${base}/admin/v1/projects`,
    {
      body: { name: 'bench', bundles: ['files-images', 'spaces'] },
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    },
    201,
  );
  const api = `${base}/api/v6/${project.id}/api/v7`;
  const session = await expectJson(
    `${api}/auth/sign-up`,
    { body: { email: 'bench@example.com', password: 'bench password 123' } },
    201,
  );
  const photos = await Promise.all(Array.from({ length: IMAGES }, (_, i) => photo(i)));
  let signUpRound = 0;
  return {
    base,
    operations: [
      {
        name: 'gallery-10x20',
        service: 'community-api',
        run: async () => {
          const form = new FormData();
          form.append('title', 'Gallery bench');
          form.append('startTime', new Date(Date.now() + 86400_000).toISOString());
          form.append('type', 'online');
          form.append('url', 'https://example.com/live');
          form.append('gallery.options', JSON.stringify(GALLERY_OPTIONS));
          photos.forEach((data, i) =>
            form.append('gallery', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `photo-${i}.jpg`),
          );
          const response = await fetch(`${api}/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${session.accessToken}` },
            body: form,
          });
          const text = await response.text();
          if (response.status !== 201) throw new Error(`gallery event: ${response.status} ${text.slice(0, 300)}`);
        },
      },
      {
        name: 'sign-up-20',
        service: 'community-api',
        run: async () => {
          const round = ++signUpRound;
          await Promise.all(
            Array.from({ length: SIGN_UPS }, (_, i) =>
              expectJson(
                `${api}/auth/sign-up`,
                { body: { email: `user-${round}-${i}@example.com`, password: 'bench password 123' } },
                201,
              ),
            ),
          );
        },
      },
    ],
  };
}
