/**
 * community-api events benchmark, each figure beside its baseline measured in the same run:
 *  1. peak RSS of the app process while it takes a ~48 MB PNG upload, against the same pipeline (and the previous
 *     one) run directly on that file in a fresh process;
 *  2. create an event with a 10-image gallery (2 MP JPEGs, 3 variants each) over HTTP, against the app's previous
 *     per-variant pipeline (decode per rendition; a faithful copy in per-variant-pipeline.ts) run on the same 10
 *     files in a child process started like the app; plain-sharp decode-once for reference. Paired rounds: each
 *     API run against the baseline run just before it; the median of those ratios;
 *  3. the app's RSS 60 s after 1 and 2 (the allocator returning memory);
 *  4. radius search over 1,000,000 events through GET .../events, against the equivalent SQL run directly with pg,
 *     and the query plan showing the GiST index (`--events 0` skips it).
 *
 *   node -r @swc-node/register tools/bench/community-events/bench-events.ts [--rounds 5] [--events 1000000] [--settle 60]
 *
 * Every child (the app, the baselines) runs with the services' allocator (tools/launcher/allocator.json) and V8
 * flags. Starts the app on a fresh database (DATABASE_URL's server) and Redis prefix; removes both.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import { computeVariants, parseImageOptions } from '@acme/events';
import { photo } from './photo';
import { createBenchDatabase, deleteRedisPrefix } from '../support/database';
import {
  ALLOCATOR_ENV,
  freePort,
  localUrl,
  memoryBytes,
  numberArg,
  Processes,
  ROOT,
  SERVICE_NODE_FLAGS,
  sleep,
  tsEntry,
  waitForHealth,
} from '../support/processes';
import { machineLine, markdownTable, mb, median, percentile } from '../support/report';

const ROUNDS = numberArg('rounds', 5);
const EVENTS = numberArg('events', 1_000_000);
const SEARCHES = numberArg('searches', 200);
const SETTLE_SECONDS = numberArg('settle', 60);
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const GALLERY_OPTIONS = {
  mode: 'exact-dimensions',
  dimensions: {
    thumb: { width: 200, height: 200 },
    card: { width: 800, height: 600 },
    large: { width: 1280, height: 960 },
  },
};
const processes = new Processes();
const work = mkdtempSync(join(tmpdir(), 'bench-events-'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(url: string, init: RequestInit & { token?: string; body?: string } = {}): Promise<any> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
  };
  const response = await fetch(url, { ...init, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_events');
  const prefix = `bench-events-${database.name}`;
  const port = await freePort();
  const base = localUrl(port);
  const app = processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/community-api/src/main.ts')], {
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
    const project = await json(`${base}/admin/v1/projects`, {
      method: 'POST',
      token: ADMIN_TOKEN,
      body: JSON.stringify({ name: 'bench', bundles: ['files-images', 'spaces'] }),
    });
    const api = `${base}/api/v6/${project.id}/api/v7`;
    const session = await json(`${api}/auth/sign-up`, {
      method: 'POST',
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 123' }),
    });
    const token: string = session.accessToken;

    const idleStartRss = memoryBytes(app.pid as number, 'VmRSS');

    // 1. Peak RSS during a ~48 MB upload, on the app as it stands after start-up.
    const side = 4000;
    const big = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const bigPath = join(work, 'big.png');
    writeFileSync(bigPath, big);
    const coverOptions = JSON.stringify({ mode: 'original-aspect', sizes: { small: 320, medium: 1024, large: 2048 } });
    // Restart the app's peak (VmHWM) so it is this upload's alone.
    writeFileSync(`/proc/${app.pid}/clear_refs`, '5');
    const idleRss = memoryBytes(app.pid as number, 'VmRSS');
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
    form.append('cover', new Blob([new Uint8Array(big)], { type: 'image/png' }), 'big.png');
    const started = performance.now();
    const bigResponse = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const bigMs = performance.now() - started;
    clearInterval(sampler);
    if (bigResponse.status !== 201)
      throw new Error(`big upload failed: ${bigResponse.status} ${await bigResponse.text()}`);
    const hwmAfter = memoryBytes(app.pid as number, 'VmHWM');
    const childOut = mkdtempSync(join(work, 'child-'));
    const direct = (mode: 'current' | 'per-variant') =>
      execFileSync(
        process.execPath,
        [
          ...SERVICE_NODE_FLAGS,
          ...tsEntry(join(__dirname, 'pipeline-child.ts')),
          mode,
          bigPath,
          coverOptions,
          childOut,
        ],
        { cwd: ROOT, env: { ...ALLOCATOR_ENV, ...process.env } },
      )
        .toString()
        .trim()
        .split(' ')
        .map(Number) as [number, number];
    const [directBefore, directPeak] = direct('current');
    const [previousBefore, previousPeak] = direct('per-variant');
    const appPeak = Math.max(sampledPeak, hwmAfter);
    console.log(
      `\n1) Peak RSS while the app takes one ${mb(big.length)} PNG upload (${side}x${side}, original + 3 variants), ${bigMs.toFixed(0)} ms; ${machineLine()}\n`,
    );
    console.log(
      markdownTable(
        ['process', 'RSS before', 'peak RSS', 'growth'],
        [
          [
            `app, POST .../events (peak: VmHWM reset before the upload; RSS sampled every 10 ms ${mb(sampledPeak)})`,
            mb(idleRss),
            mb(appPeak),
            `**+${mb(appPeak - idleRss)}**`,
          ],
          [
            'same pipeline on the same file, fresh process, no HTTP',
            mb(directBefore),
            mb(directPeak),
            `+${mb(directPeak - directBefore)}`,
          ],
          [
            'previous per-variant pipeline (webp effort 4), fresh process',
            mb(previousBefore),
            mb(previousPeak),
            `+${mb(previousPeak - previousBefore)}`,
          ],
        ],
      ),
    );

    // 2. Gallery create vs the previous per-variant pipeline (and plain-sharp decode-once), paired per round.
    const photos = await Promise.all(Array.from({ length: 10 }, (_, i) => photo(i)));
    const paths = photos.map((data, i) => {
      const path = join(work, `photo-${i}.jpg`);
      writeFileSync(path, data);
      return path;
    });
    const variants = computeVariants(parseImageOptions(GALLERY_OPTIONS, 'gallery.options'));
    const child = processes.start(
      [...SERVICE_NODE_FLAGS, ...tsEntry(join(__dirname, 'gallery-child.ts'))],
      {},
      { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    );
    const baseline = (mode: 'per-variant' | 'decode-once', effort: number) =>
      new Promise<{ ms: number; bytes: number }>((resolve) => {
        child.once('message', (result) => resolve(result as { ms: number; bytes: number }));
        child.send({ mode, effort, paths, variants, outDir: mkdtempSync(join(work, `${mode}-`)) });
      });
    const viaApi = async () => {
      const form = new FormData();
      form.append('title', 'Gallery bench');
      form.append('startTime', new Date(Date.now() + 86400_000).toISOString());
      form.append('type', 'online');
      form.append('url', 'https://example.com/live');
      form.append('gallery.options', JSON.stringify(GALLERY_OPTIONS));
      photos.forEach((data, i) =>
        form.append('gallery', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `photo-${i}.jpg`),
      );
      const started = performance.now();
      const response = await fetch(`${api}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await response.json()) as {
        files?: Array<{ original: { size: number }; variants: Record<string, { size: number }> }>;
      };
      if (response.status !== 201 || body.files?.length !== 10)
        throw new Error(`create failed: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      const bytes = body.files.reduce(
        (sum, file) => sum + file.original.size + Object.values(file.variants).reduce((n, v) => n + v.size, 0),
        0,
      );
      return { ms: performance.now() - started, bytes };
    };
    await baseline('per-variant', 4);
    await baseline('decode-once', 2);
    await viaApi();
    // Per round: the previous pipeline, then each change alone (decode once at effort 4; effort 2 per variant),
    // plain sharp doing both, and the API last, so it is paired with the previous pipeline of its own round.
    const rounds: Array<{
      perVariant: number;
      onceEffort4: number;
      perVariantEffort2: number;
      decodeOnce: number;
      api: number;
    }> = [];
    let outputBytes = { perVariant: 0, decodeOnce: 0, api: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const old = await baseline('per-variant', 4);
      const onceEffort4 = await baseline('decode-once', 4);
      const perVariantEffort2 = await baseline('per-variant', 2);
      const raw = await baseline('decode-once', 2);
      const viaHttp = await viaApi();
      rounds.push({
        perVariant: old.ms,
        onceEffort4: onceEffort4.ms,
        perVariantEffort2: perVariantEffort2.ms,
        decodeOnce: raw.ms,
        api: viaHttp.ms,
      });
      outputBytes = { perVariant: old.bytes, decodeOnce: raw.bytes, api: viaHttp.bytes };
    }
    child.kill('SIGTERM');
    const totalBytes = photos.reduce((sum, data) => sum + data.length, 0);
    const fixed = (n: number, digits = 2) => n.toFixed(digits);
    console.log(
      `\n2) Create event with a 10-image gallery (2 MP JPEGs, ${mb(totalBytes)} in all; original + 3 variants each, webp q85), ${ROUNDS} paired rounds; ${machineLine()}\n`,
    );
    console.log(
      markdownTable(
        [
          'round',
          'previous per-variant ms',
          'decode-once, effort 4 ms',
          'per-variant, effort 2 ms',
          'plain sharp decode-once + effort 2 ms',
          'API ms',
          'API / previous (throughput)',
          'API / plain sharp',
        ],
        rounds.map((r, i) => [
          i + 1,
          fixed(r.perVariant, 0),
          fixed(r.onceEffort4, 0),
          fixed(r.perVariantEffort2, 0),
          fixed(r.decodeOnce, 0),
          fixed(r.api, 0),
          fixed(r.perVariant / r.api),
          fixed(r.decodeOnce / r.api),
        ]),
      ),
    );
    console.log(
      `   median of paired ratios, API / per-variant pipeline : **${fixed(median(rounds.map((r) => r.perVariant / r.api)))}x** throughput (target >= 1.5)`,
    );
    console.log(
      `   median of paired ratios, API / plain decode-once     : ${fixed(median(rounds.map((r) => r.decodeOnce / r.api)))}x`,
    );
    console.log(
      `   median of paired ratios, previous / each change alone : decode once ${fixed(median(rounds.map((r) => r.perVariant / r.onceEffort4)))}x, webp effort 2 ${fixed(median(rounds.map((r) => r.perVariant / r.perVariantEffort2)))}x`,
    );
    console.log(
      `   output bytes per gallery: per-variant (webp effort 4) ${mb(outputBytes.perVariant)}, decode-once ${mb(outputBytes.decodeOnce)}, API ${mb(outputBytes.api)}`,
    );

    // 3. What the app keeps once the images are done.
    const rssAfter = memoryBytes(app.pid as number, 'VmRSS');
    await sleep(SETTLE_SECONDS * 1000);
    const rssSettled = memoryBytes(app.pid as number, 'VmRSS');
    const allocator =
      (process.env['LD_PRELOAD'] ?? ALLOCATOR_ENV['LD_PRELOAD'])
        ? `jemalloc (${process.env['MALLOC_CONF'] ?? ALLOCATOR_ENV['MALLOC_CONF'] ?? 'default MALLOC_CONF'})`
        : `glibc, MALLOC_ARENA_MAX=${process.env['MALLOC_ARENA_MAX'] ?? ALLOCATOR_ENV['MALLOC_ARENA_MAX'] ?? 'unset'}`;
    console.log(
      `\n3) App RSS, allocator ${allocator}: idle at start ${mb(idleStartRss)}; right after 1) and 2) ${mb(rssAfter)}; ${SETTLE_SECONDS} s later **${mb(rssSettled)}** (target <= 200 MB)`,
    );

    // 4. Radius search over 1,000,000 events.
    if (EVENTS === 0) return;
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
    console.log(
      `\n4) Radius search over ${EVENTS.toLocaleString('en')} events (uniform over lat 35..60, lng -10..30); seeded + indexed in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
    );
    const centers = Array.from({ length: SEARCHES }, (_, i) => ({
      lat: 40 + ((i * 7919) % 1500) / 100,
      lng: -5 + ((i * 104729) % 3000) / 100,
    }));
    const rawSql = `SELECT e.* FROM community.events e
      WHERE e.project_id = $1 AND public.earth_box(community.geo_point($2, $3), $4) @> e.earth_point
        AND public.earth_distance(community.geo_point($2, $3), e.earth_point) <= $4
      ORDER BY e.start_time, e.id LIMIT 20`;
    const plan = (
      await db.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${rawSql}`, [
        project.id,
        48.85,
        2.35,
        10_000,
      ])
    ).rows.map((row) => `      ${row['QUERY PLAN']}`);
    for (const radius of [1_000, 10_000, 50_000]) {
      const apiLatency: number[] = [];
      const rawLatency: number[] = [];
      let found = 0;
      for (const center of centers) {
        let t0 = performance.now();
        const page = await json(
          `${api}/events?latitude=${center.lat}&longitude=${center.lng}&radius=${radius}&limit=20`,
          { token },
        );
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
