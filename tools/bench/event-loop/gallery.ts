/**
 * Event-loop stall while community-api creates an event with a 10-image gallery of 2000x1500 JPEGs, 20 named variants
 * each (the documented maximum), `GET /health` sent every 50 ms meanwhile; the longest `/health` wait is the stall.
 * Against, in the same run and measured the same way, a bare node:http server doing the same renditions with plain
 * sharp (gallery-raw-server.ts): `shared` (a new sharp input over one decoded buffer per rendition, as the app does)
 * and `clone` (sharp's `clone()` per rendition, as the app did before issue 25).
 *
 *   flock /tmp/heavy.lock node -r @swc-node/register tools/bench/event-loop/gallery.ts [--rounds 3]
 *
 * Self-contained (own photo generator and /health sampler) so the event-loop harness can call `measureGallery`.
 * Starts the app on a fresh database and Redis prefix and removes both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createBenchDatabase, deleteRedisPrefix } from '../support/database';
import {
  freePort,
  localUrl,
  numberArg,
  Processes,
  SERVICE_NODE_FLAGS,
  tsEntry,
  waitForHealth,
} from '../support/processes';
import { machineLine, markdownTable, median } from '../support/report';

const ROUNDS = numberArg('rounds', 3);
const IMAGES = 10;
const WIDTH = 2000;
const HEIGHT = 1500;
/** 20 variants, widths 100..2000 at 4:3: about 254 MP with the originals, under the 300 MP request budget. */
const VARIANTS = Array.from({ length: 20 }, (_, i) => ({
  name: `w${(i + 1) * 100}`,
  width: (i + 1) * 100,
  height: (i + 1) * 75,
}));
const GALLERY_OPTIONS = {
  mode: 'aspect-ratio-width-based',
  aspectRatio: { width: 4, height: 3 },
  widths: Object.fromEntries(VARIANTS.map((v) => [v.name, v.width])),
};
const ADMIN_TOKEN = randomBytes(16).toString('hex');

/** A photo-like JPEG (gradients plus noise) so decode and encode cost what a camera file would. */
async function photo(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const n = ((x * 7 + y * 13 + seed * 101) * 2654435761) >>> 24;
      raw[i] = ((x + seed * 40) % 256) ^ (n & 31);
      raw[i + 1] = ((y + seed * 20) % 256) ^ (n & 15);
      raw[i + 2] = ((x + y) % 256) ^ (n & 63);
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

export interface StallFigures {
  totalMs: number;
  longestStallMs: number;
  samples: number;
}

/** Runs `operation` while sending `GET {base}/health` every 50 ms; the longest answer time is the stall. */
export async function withHealthSampling(base: string, operation: () => Promise<void>): Promise<StallFigures> {
  const waits: Promise<number>[] = [];
  const timer = setInterval(() => {
    const sent = performance.now();
    // A probe that fails (connect timeout on a stalled loop) counts as a stall as long as it waited.
    waits.push(
      fetch(`${base}/health`).then(
        async (response) => (await response.text(), performance.now() - sent),
        () => performance.now() - sent,
      ),
    );
  }, 50);
  const started = performance.now();
  try {
    await operation();
  } finally {
    clearInterval(timer);
  }
  const totalMs = performance.now() - started;
  const stalls = await Promise.all(waits);
  return { totalMs, longestStallMs: Math.max(0, ...stalls), samples: stalls.length };
}

async function json(url: string, body: unknown, token?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function main(): Promise<void> {
  const processes = new Processes();
  const work = mkdtempSync(join(tmpdir(), 'bench-gallery-'));
  const database = await createBenchDatabase('bench_gallery');
  const prefix = `bench-gallery-${database.name}`;
  try {
    const paths = await Promise.all(
      Array.from({ length: IMAGES }, async (_, i) => {
        const path = join(work, `photo-${i}.jpg`);
        writeFileSync(path, await photo(i));
        return path;
      }),
    );
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const app = localUrl(appPort);
    const raw = localUrl(rawPort);
    processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/community-api/src/main.ts')], {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      STORAGE_DIR: join(work, 'storage'),
      UPLOAD_TMP_DIR: work,
    });
    processes.start([...SERVICE_NODE_FLAGS, ...tsEntry(join(__dirname, 'gallery-raw-server.ts'))], {
      PORT: String(rawPort),
    });
    await waitForHealth(app, 'the community API', 180_000);
    await waitForHealth(raw, 'the raw sharp server', 60_000);
    const project = (await json(`${app}/admin/v1/projects`, { name: 'bench', bundles: ['files-images'] }, ADMIN_TOKEN))
      .body as { id: string };
    const api = `${app}/api/v6/${project.id}/api/v7`;
    const session = await json(`${api}/auth/sign-up`, { email: 'gallery@example.com', password: 'bench password 123' });
    const token = (session.body as { accessToken: string }).accessToken;
    const files = paths.map((path) => new Blob([new Uint8Array(readFileSync(path))], { type: 'image/jpeg' }));

    const createEvent = async () => {
      const form = new FormData();
      form.append('title', 'Gallery');
      form.append('startTime', new Date(Date.now() + 86_400_000).toISOString());
      form.append('type', 'online');
      form.append('url', 'https://x.example/live');
      form.append('gallery.options', JSON.stringify(GALLERY_OPTIONS));
      files.forEach((file, i) => form.append('gallery', file, `photo-${i}.jpg`));
      const response = await fetch(`${api}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = await response.text();
      if (response.status !== 201) throw new Error(`create event: ${response.status} ${body}`);
    };
    const rawRun = (mode: 'shared' | 'clone') => async () => {
      const result = await json(`${raw}/run`, {
        mode,
        paths,
        variants: VARIANTS,
        outDir: mkdtempSync(join(work, mode)),
      });
      if (result.status !== 200) throw new Error(`raw ${mode}: ${JSON.stringify(result.body)}`);
    };

    const runs: Record<string, StallFigures[]> = { app: [], 'raw sharp, shared buffer': [], 'raw sharp, clone()': [] };
    const loads: string[] = [];
    await createEvent(); // warm-up (code paths, connection pools)
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(machineLine());
      runs['app']?.push(await withHealthSampling(app, createEvent));
      runs['raw sharp, shared buffer']?.push(await withHealthSampling(raw, rawRun('shared')));
      runs['raw sharp, clone()']?.push(await withHealthSampling(raw, rawRun('clone')));
    }
    loads.push(machineLine());
    const rows = Object.entries(runs).map(([name, figures]) => [
      name,
      `${median(figures.map((f) => f.totalMs)).toFixed(0)} ms`,
      `${median(figures.map((f) => f.longestStallMs)).toFixed(0)} ms`,
      `${Math.max(...figures.map((f) => f.longestStallMs)).toFixed(0)} ms`,
      median(figures.map((f) => f.samples)),
    ]);
    const appTotal = median(runs['app']?.map((f) => f.totalMs) ?? []);
    const rawTotal = median(runs['raw sharp, shared buffer']?.map((f) => f.totalMs) ?? []);
    console.log(
      `\n10-image gallery, ${WIDTH}x${HEIGHT} JPEGs x ${VARIANTS.length} variants (+ original), ${ROUNDS} rounds\n`,
    );
    console.log(
      markdownTable(['run', 'total (median)', 'longest /health wait (median)', 'worst round', '/health samples'], rows),
    );
    console.log(`app / raw sharp (shared buffer) total time: ${(appTotal / rawTotal).toFixed(2)}`);
    console.log(`machine: ${loads.join(' | ')}`);
  } finally {
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
