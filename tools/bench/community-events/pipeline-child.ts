/**
 * The raw baseline for peak RSS: the same sharp pipeline (decode, strip EXIF, original + named variants) run
 * directly on one file in a fresh process, which prints its RSS before and its peak RSS (VmHWM), in bytes.
 *   node -r @swc-node/register pipeline-child.ts <file> <options-json> <outDir>
 */
import { readFileSync, statSync } from 'node:fs';
import { parseImageOptions, processImage } from '@acme/events';

const [file, options, outDir] = process.argv.slice(2) as [string, string, string];
void (async () => {
  const before = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  await processImage({ path: file, filename: 'bench', size: statSync(file).size }, parseImageOptions(JSON.parse(options), 'options'), outDir, { maxPixels: 100_000_000 });
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  process.stdout.write(`${Number(before) * 1024} ${Number(hwm) * 1024}\n`);
})();
