/**
 * The raw baseline for peak RSS: the same sharp pipeline (decode, strip EXIF, original + named variants) run
 * directly on one file in a fresh process, which prints its RSS before and its peak RSS (VmHWM), in bytes.
 *   node -r @swc-node/register pipeline-child.ts <file> <options-json> <outDir>
 */
import { statSync } from 'node:fs';
import { parseImageOptions, processImage } from '@acme/events';
import { memoryBytes } from '../support/processes';

const [file, options, outDir] = process.argv.slice(2) as [string, string, string];
void (async () => {
  const before = memoryBytes('self', 'VmRSS');
  await processImage({ path: file, filename: 'bench', size: statSync(file).size }, parseImageOptions(JSON.parse(options), 'options'), outDir, { maxPixels: 100_000_000 });
  process.stdout.write(`${before} ${memoryBytes('self', 'VmHWM')}\n`);
})();
