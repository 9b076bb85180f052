/**
 * Runs a gallery baseline on request, in its own process (started like the app: same allocator, same V8 flags), so
 * the app and its baselines run alike. Message in: `{ mode, effort, paths, variants, outDir }`; out: `{ ms, bytes }` for
 * all images processed at once, as the app does.
 *   node -r @swc-node/register gallery-child.ts   (with an IPC channel)
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeOnceRaw, perVariant, Rendition } from './per-variant-pipeline';

interface Job {
  mode: 'per-variant' | 'decode-once';
  effort: number;
  paths: string[];
  variants: Rendition[];
  outDir: string;
}

// What the previous app ran with: sharp's default cache and, on glibc without jemalloc as it ran, one thread.
const defaults = sharp.cache();

process.on('message', (job: Job) => {
  void (async () => {
    if (job.mode === 'per-variant') {
      sharp.cache({ memory: defaults.memory.max, files: defaults.files.max, items: defaults.items.max });
    } else {
      sharp.cache(false);
    }
    sharp.concurrency(1);
    const run = job.mode === 'per-variant' ? perVariant : decodeOnceRaw;
    const dirs = job.paths.map((_, i) => join(job.outDir, String(i)));
    dirs.forEach((dir) => mkdirSync(dir, { recursive: true }));
    const started = performance.now();
    const sizes = await Promise.all(job.paths.map((path, i) => run(path, job.variants, dirs[i] as string, job.effort)));
    const ms = performance.now() - started;
    rmSync(job.outDir, { recursive: true, force: true });
    process.send?.({ ms, bytes: sizes.reduce((sum, size) => sum + size, 0) });
  })();
});
