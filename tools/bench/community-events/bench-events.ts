/**
 * community-api events benchmark, each figure beside its raw baseline measured in the same run:
 *  1. create an event with a 10-image gallery (2 MP JPEGs, 3 variants each) over HTTP, against the same sharp
 *     pipeline (`processImage` of @acme/events, same 10 images, same concurrency) called directly; interleaved rounds;
 *  2. peak RSS of the app process while it takes a ~48 MB image upload, against the same pipeline run directly
 *     on that file in a fresh process;
 *  3. radius search over 1,000,000 events through GET .../events, against the equivalent SQL run directly with pg,
 *     and the query plan showing the GiST index.
 *
 *   node -r @swc-node/register tools/bench/community-events/bench-events.ts [--rounds 5] [--events 1000000]
 *
 * Starts the app as a child process on a fresh database (DATABASE_URL's server) and Redis prefix; removes both.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import { parseImageOptions, processImage } from '@acme/events';
import { createBenchDatabase, deleteRedisPrefix } from '../support/database';
import { freePort, localUrl, memoryBytes, numberArg, Processes, ROOT, tsEntry, waitForHealth } from '../support/processes';
import { mb, median, percentile } from '../support/report';

const ROUNDS = numberArg('rounds', 5);
const EVENTS = numberArg('events', 1_000_000);
const SEARCHES = numberArg('searches', 200);
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const GALLERY_OPTIONS = { mode: 'exact-dimensions', dimensions: { thumb: { width: 200, height: 200 }, card: { width: 800, height: 600 }, large: { width: 1280, height: 960 } } };
const processes = new Processes();
const work = mkdtempSync(join(tmpdir(), 'bench-events-'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(url: string, init: RequestInit & { token?: string; body?: string } = {}): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) };
  const response = await fetch(url, { ...init, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** A 2 MP JPEG with photo-like detail (smooth gradients plus noise), about 0.5-1 MB. */
async function photo(seed: number): Promise<Buffer> {
  const width = 1600;
  const height = 1250;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = ((x * 7 + y * 13 + seed * 101) * 2654435761) >>> 24;
      raw[i] = ((x + seed * 40) % 256) ^ (n & 31);
      raw[i + 1] = ((y + seed * 20) % 256) ^ (n & 15);
      raw[i + 2] = ((x + y) % 256) ^ (n & 63);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_events');
  const prefix = `bench-events-${database.name}`;
  const port = await freePort();
  const base = localUrl(port);
  const app = processes.start(tsEntry('apps/community-api/src/main.ts'), {
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    STORAGE_DIR: join(work, 'storage'),
    UPLOAD_TMP_DIR: work,
  });
  const db = new Client({ connectionString: database.url });
  try {
    await waitForHealth(base, 'the community API', 180_000);
    await db.connect();
    const project = await json(`${base}/admin/v1/projects`, { method: 'POST', token: ADMIN_TOKEN, body: JSON.stringify({ name: 'bench', bundles: ['files-images', 'spaces'] }) });
    const api = `${base}/api/v6/${project.id}/api/v7`;
    const session = await json(`${api}/auth/sign-up`, { method: 'POST', body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 123' }) });
    const token: string = session.accessToken;

    // 1. Gallery create vs the same pipeline directly.
    const photos = await Promise.all(Array.from({ length: 10 }, (_, i) => photo(i)));
    const paths = photos.map((data, i) => {
      const path = join(work, `photo-${i}.jpg`);
      writeFileSync(path, data);
      return path;
    });
    const options = parseImageOptions(GALLERY_OPTIONS, 'gallery.options');
    const viaApi = async () => {
      const form = new FormData();
      form.append('title', 'Gallery bench');
      form.append('startTime', new Date(Date.now() + 86400_000).toISOString());
      form.append('type', 'online');
      form.append('url', 'https://example.com/live');
      form.append('gallery.options', JSON.stringify(GALLERY_OPTIONS));
      photos.forEach((data, i) => form.append('gallery', new Blob([data], { type: 'image/jpeg' }), `photo-${i}.jpg`));
      const started = performance.now();
      const response = await fetch(`${api}/events`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const body = (await response.json()) as { files?: unknown[] };
      if (response.status !== 201 || body.files?.length !== 10) throw new Error(`create failed: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      return performance.now() - started;
    };
    const directWithDirs = async () => {
      const out = mkdtempSync(join(work, 'direct-'));
      paths.forEach((_, i) => mkdirSync(join(out, `${i}`)));
      const started = performance.now();
      await Promise.all(paths.map((path, i) => processImage({ path, filename: `p${i}`, size: (photos[i] as Buffer).length }, options, join(out, `${i}`), { maxPixels: 100_000_000 })));
      const elapsed = performance.now() - started;
      rmSync(out, { recursive: true, force: true });
      return elapsed;
    };
    await viaApi();
    await directWithDirs();
    const apiTimes: number[] = [];
    const directTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      apiTimes.push(await viaApi());
      directTimes.push(await directWithDirs());
    }
    const apiMs = median(apiTimes);
    const directMs = median(directTimes);
    const totalBytes = photos.reduce((sum, data) => sum + data.length, 0);
    console.log(`\n1) Create event with a 10-image gallery (2 MP JPEGs, ${mb(totalBytes)} in all; 3 variants + original each), median of ${ROUNDS} interleaved rounds`);
    console.log(`   API  POST .../events multipart : ${apiMs.toFixed(0)} ms/event  = ${(10_000 / apiMs).toFixed(1)} images/s`);
    console.log(`   direct sharp pipeline          : ${directMs.toFixed(0)} ms/batch  = ${(10_000 / directMs).toFixed(1)} images/s`);
    console.log(`   throughput ratio API/direct    : ${(directMs / apiMs).toFixed(2)}x (target >= 0.80)`);

    // 2. Peak RSS during a ~48 MB upload.
    const side = 4000;
    const big = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    const bigPath = join(work, 'big.png');
    writeFileSync(bigPath, big);
    const coverOptions = JSON.stringify({ mode: 'original-aspect', sizes: { small: 320, medium: 1024, large: 2048 } });
    const idleRss = memoryBytes(app.pid as number, 'VmRSS');
    const hwmBefore = memoryBytes(app.pid as number, 'VmHWM');
    let sampledPeak = idleRss;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, memoryBytes(app.pid as number, 'VmRSS'));
    }, 10);
    const form = new FormData();
    form.append('title', 'Big upload');
    form.append('startTime', new Date(Date.now() + 86400_000).toISOString());
    form.append('type', 'online');
    form.append('url', 'https://example.com/live');
    form.append('cover.options', coverOptions);
    form.append('cover', new Blob([big], { type: 'image/png' }), 'big.png');
    const started = performance.now();
    const bigResponse = await fetch(`${api}/events`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const bigMs = performance.now() - started;
    clearInterval(sampler);
    if (bigResponse.status !== 201) throw new Error(`big upload failed: ${bigResponse.status} ${await bigResponse.text()}`);
    const hwmAfter = memoryBytes(app.pid as number, 'VmHWM');
    const childOut = mkdtempSync(join(work, 'child-'));
    const [directBefore, directPeak] = execFileSync(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'pipeline-child.ts'), bigPath, coverOptions, childOut], { cwd: ROOT })
      .toString()
      .trim()
      .split(' ')
      .map(Number) as [number, number];
    console.log(`\n2) Peak RSS while the app takes one ${mb(big.length)} PNG upload (${side}x${side}, original + 3 variants), ${bigMs.toFixed(0)} ms`);
    console.log(`   app RSS idle before            : ${mb(idleRss)} (peak so far ${mb(hwmBefore)})`);
    console.log(`   app peak RSS during the upload : ${mb(Math.max(sampledPeak, hwmAfter))} (sampled ${mb(sampledPeak)}, VmHWM ${mb(hwmAfter)})`);
    console.log(`   growth over idle               : ${mb(Math.max(sampledPeak, hwmAfter) - idleRss)} for a ${mb(big.length)} file`);
    console.log(`   direct pipeline, fresh process : ${mb(directBefore)} before, peak ${mb(directPeak)}, growth ${mb(directPeak - directBefore)} (same pipeline, no HTTP)`);

    // 3. Radius search over 1,000,000 events.
    const userId: string = session.user.id;
    const seedStarted = performance.now();
    await db.query('DROP INDEX community.events_earth_point_idx');
    for (let start = 0; start < EVENTS; start += 250_000) {
      const count = Math.min(250_000, EVENTS - start);
      await db.query(
        `INSERT INTO community.events (project_id, user_id, title, start_time, type, address, location, visibility, allow_maybe, guest_list_visible, host_ids)
         SELECT $1, $2::uuid, 'event ' || g, now() + (g % 10000) * interval '1 hour', 'physical', 'somewhere',
                jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(-10 + random() * 40, 35 + random() * 25)),
                'public', true, true, ARRAY[$2::text]
         FROM generate_series($3::int, $4::int) g`,
        [project.id, userId, start + 1, start + count],
      );
    }
    await db.query('CREATE INDEX events_earth_point_idx ON community.events USING gist (earth_point)');
    await db.query('ANALYZE community.events');
    console.log(`\n3) Radius search over ${EVENTS.toLocaleString('en')} events (uniform over lat 35..60, lng -10..30); seeded + indexed in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    const centers = Array.from({ length: SEARCHES }, (_, i) => ({ lat: 40 + ((i * 7919) % 1500) / 100, lng: -5 + ((i * 104729) % 3000) / 100 }));
    const rawSql = `SELECT e.* FROM community.events e
      WHERE e.project_id = $1 AND public.earth_box(community.geo_point($2, $3), $4) @> e.earth_point
        AND public.earth_distance(community.geo_point($2, $3), e.earth_point) <= $4
      ORDER BY e.start_time, e.id LIMIT 20`;
    const plan = (await db.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${rawSql}`, [project.id, 48.85, 2.35, 10_000])).rows.map((row) => `      ${row['QUERY PLAN']}`);
    for (const radius of [1_000, 10_000, 50_000]) {
      const apiLatency: number[] = [];
      const rawLatency: number[] = [];
      let found = 0;
      for (const center of centers) {
        let t0 = performance.now();
        const page = await json(`${api}/events?latitude=${center.lat}&longitude=${center.lng}&radius=${radius}&limit=20`, { token });
        apiLatency.push(performance.now() - t0);
        found += page.pagination.totalItems;
        t0 = performance.now();
        await db.query(rawSql, [project.id, center.lat, center.lng, radius]);
        rawLatency.push(performance.now() - t0);
      }
      console.log(
        `   radius ${String(radius / 1000).padStart(2)} km (avg ${(found / centers.length).toFixed(0)} matches): API p50 ${median(apiLatency).toFixed(1)} ms p99 ${percentile(apiLatency, 0.99).toFixed(1)} ms` +
          ` | raw SQL p50 ${median(rawLatency).toFixed(1)} ms p99 ${percentile(rawLatency, 0.99).toFixed(1)} ms (${SEARCHES} sequential searches each)`,
      );
    }
    console.log('   plan (raw SQL, 10 km around Paris):');
    console.log(plan.join('\n'));
  } finally {
    await processes.stopAll();
    await db.end().catch(() => undefined);
    await database.drop().catch(() => undefined);
    await deleteRedisPrefix(prefix);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  processes.killAll();
  console.error(error);
  process.exit(1);
});
