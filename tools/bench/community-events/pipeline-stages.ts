/**
 * Where the gallery's time goes: each stage of the image pipeline timed alone on one 2 MP JPEG of the bench
 * (mean of 5 after a warm-up, one job at a time), and the 10-image gallery run with 1 or 2 libvips threads per
 * operation. The profile behind docs/benchmarks/community-api.md, events.
 *   node -r @swc-node/register tools/bench/community-events/pipeline-stages.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { machineLine, markdownTable } from '../support/report';
import { decodeOnceRaw } from './per-variant-pipeline';
import { photo } from './photo';

const VARIANTS = [
  { name: 'thumb', width: 200, height: 200, fit: 'cover' as const },
  { name: 'card', width: 800, height: 600, fit: 'cover' as const },
  { name: 'large', width: 1280, height: 960, fit: 'cover' as const },
];

async function mean(fn: () => Promise<unknown>, times = 5): Promise<number> {
  await fn();
  const started = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return (performance.now() - started) / times;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'pipeline-stages-'));
  try {
    const paths = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const path = join(work, `photo-${i}.jpg`);
        writeFileSync(path, await photo(i));
        return path;
      }),
    );
    const file = paths[0] as string;
    sharp.cache(false);
    sharp.concurrency(1);
    const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
    const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const stages: Array<[string, () => Promise<unknown>]> = [
      ['decode the 2 MP JPEG in full', () => sharp(file).rotate().raw().toBuffer()],
      [
        'decode with shrink-on-load for 800x600 (1/2)',
        () => sharp(file).rotate().resize(800, 600, { fit: 'cover' }).raw().toBuffer(),
      ],
      [
        'decode with shrink-on-load for 200x200 (1/4)',
        () => sharp(file).rotate().resize(200, 200, { fit: 'cover' }).raw().toBuffer(),
      ],
      ['resize decoded pixels to 1280x960', () => pixels().resize(1280, 960, { fit: 'cover' }).raw().toBuffer()],
      ['resize decoded pixels to 800x600', () => pixels().resize(800, 600, { fit: 'cover' }).raw().toBuffer()],
      ['resize decoded pixels to 200x200', () => pixels().resize(200, 200, { fit: 'cover' }).raw().toBuffer()],
      ...[4, 2, 0].map((effort): [string, () => Promise<unknown>] => [
        `encode 2 MP webp q85, effort ${effort}`,
        () => pixels().webp({ quality: 85, effort }).toBuffer(),
      ]),
      ['encode 2 MP jpeg q85 (libjpeg-turbo)', () => pixels().jpeg({ quality: 85 }).toBuffer()],
      ['encode 2 MP jpeg q85, mozjpeg', () => pixels().jpeg({ quality: 85, mozjpeg: true }).toBuffer()],
    ];
    const rows: Array<[string, string]> = [];
    for (const [label, fn] of stages) rows.push([label, (await mean(fn)).toFixed(1)]);
    for (const effort of [4, 2, 0])
      rows.push([
        `bytes of the 2 MP webp at effort ${effort}`,
        String((await pixels().webp({ quality: 85, effort }).toBuffer()).length),
      ]);
    for (const threads of [1, 2]) {
      sharp.concurrency(threads);
      const gallery = async () => {
        const out = mkdtempSync(join(work, 'out-'));
        await Promise.all(paths.map((path) => decodeOnceRaw(path, VARIANTS, mkdtempSync(join(out, 'image-')))));
        rmSync(out, { recursive: true, force: true });
      };
      rows.push([
        `10-image gallery, decode once + effort 2, ${threads} libvips thread(s) per operation (ms)`,
        (await mean(gallery, 3)).toFixed(0),
      ]);
    }
    console.log(`Pipeline stages, ${machineLine()}\n`);
    console.log(markdownTable(['stage', 'ms (or bytes)'], rows));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
