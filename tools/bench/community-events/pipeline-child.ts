/**
 * The direct baselines for peak RSS: a pipeline run on one file in a fresh process, which prints its RSS before and
 * its peak RSS (VmHWM), in bytes. `current` is the app's processImage; `per-variant` the previous pipeline (a copy
 * in per-variant-pipeline.ts, libwebp effort 4).
 *   node -r @swc-node/register pipeline-child.ts <current|per-variant> <file> <options-json> <outDir>
 */
import { statSync } from 'node:fs';
import sharp from 'sharp';
import { computeVariants, parseImageOptions, processImage } from '@acme/events';
import { memoryBytes } from '../support/processes';
import { perVariant } from './per-variant-pipeline';

const [mode, file, json, outDir] = process.argv.slice(2) as [string, string, string, string];
void (async () => {
  const options = parseImageOptions(JSON.parse(json), 'options');
  if (mode === 'per-variant') {
    // As the previous app ran: sharp's default cache, one libvips thread (glibc without jemalloc).
    sharp.cache({ memory: 50, files: 20, items: 100 });
    sharp.concurrency(1);
  }
  const before = memoryBytes('self', 'VmRSS');
  if (mode === 'per-variant') await perVariant(file, computeVariants(options), outDir);
  else
    await processImage({ path: file, filename: 'bench', size: statSync(file).size }, options, outDir, {
      maxPixels: 100_000_000,
    });
  process.stdout.write(`${before} ${memoryBytes('self', 'VmHWM')}\n`);
})();
