/**
 * Baselines for the gallery figure, run in a child process (gallery-child.ts):
 * - `perVariant`: a faithful copy of the app's previous pipeline (before issue 17): one sharp pipeline per rendition,
 *   each decoding the file again, libwebp at its default effort (4), sharp's default cache;
 * - `decodeOnceRaw`: plain sharp calls doing what the app now does (decode once to pixels, a clone per rendition,
 *   webp effort 2), with none of the app's code, for reference.
 * Both write the same renditions (original + the named variants) to `outDir`; `effort` (libwebp method) can be
 * swapped to show what each change bought on its own.
 */
import { join } from 'node:path';
import sharp, { Sharp } from 'sharp';

export interface Rendition {
  name: string;
  width: number;
  height: number;
  fit: 'cover' | 'contain' | 'inside' | 'outside';
}

const INPUT = { limitInputPixels: 100_000_000, failOn: 'warning' as const, sequentialRead: true };
const SEQUENTIAL_ABOVE_PIXELS = 8_000_000;

async function sequential<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (const job of jobs) results.push(await job());
  return results;
}

/** The previous processImage with format webp, quality 85, EXIF stripped (the gallery's options). */
export async function perVariant(path: string, variants: Rendition[], outDir: string, effort = 4): Promise<number> {
  const meta = await sharp(path, INPUT).metadata();
  const base = () => sharp(path, INPUT).rotate();
  const render = async (name: string, pipeline: Sharp) =>
    (await pipeline.webp({ quality: 85, effort }).toFile(join(outDir, `${name}.webp`))).size;
  const jobs = [
    () => render('original', base()),
    ...variants.map((v) => () => render(v.name, base().resize(v.width, v.height, { fit: v.fit }))),
  ];
  const sizes =
    (meta.width as number) * (meta.height as number) > SEQUENTIAL_ABOVE_PIXELS
      ? await sequential(jobs)
      : await Promise.all(jobs.map((job) => job()));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** Decode once, then resize and encode a clone of the pixels per rendition. */
export async function decodeOnceRaw(path: string, variants: Rendition[], outDir: string, effort = 2): Promise<number> {
  const { data, info } = await sharp(path, INPUT).rotate().raw().toBuffer({ resolveWithObject: true });
  const pixels = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const render = async (name: string, pipeline: Sharp) =>
    (await pipeline.webp({ quality: 85, effort }).toFile(join(outDir, `${name}.webp`))).size;
  const sizes = await Promise.all([
    render('original', pixels.clone()),
    ...variants.map((v) => render(v.name, pixels.clone().resize(v.width, v.height, { fit: v.fit }))),
  ]);
  return sizes.reduce((sum, size) => sum + size, 0);
}
