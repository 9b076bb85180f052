import { join } from 'node:path';
import sharp, { Sharp } from 'sharp';
import { EventError, EventErrorCode } from './events.errors';
import { computeVariants, ImageOptions } from './image-options';
import type { ImageFileMetadata } from './event-file.entity';

/** Formats we decode; anything else sharp might read (SVG, PDF, raw) is not an image upload. */
const ACCEPTED_INPUT = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff', 'heif']);
const ENCODABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff']);

const SEQUENTIAL_ABOVE_PIXELS = 8_000_000;

async function sequential<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (const job of jobs) results.push(await job());
  return results;
}

export interface ImageLimits {
  /** Decompression-bomb guard: width × height of the source. */
  maxPixels: number;
}

export interface ProcessedRendition {
  path: string;
  width: number;
  height: number;
  size: number;
  format: string;
}

export interface ProcessedImage {
  original: ProcessedRendition;
  variants: Record<string, ProcessedRendition>;
  metadata: ImageFileMetadata;
}

const invalidImage = (filename: string, reason: string) =>
  new EventError(EventErrorCode.INVALID_IMAGE, `${filename} is not a valid image: ${reason}`, { file: filename });

function encode(pipeline: Sharp, format: string, quality: number): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality, mozjpeg: false });
    case 'png':
      return pipeline.png({ quality, compressionLevel: 6 });
    case 'webp':
      return pipeline.webp({ quality });
    case 'avif':
      return pipeline.avif({ quality });
    default:
      return pipeline.toFormat(format as keyof sharp.FormatEnum);
  }
}

/**
 * Decode, orient, strip EXIF (unless asked not to), re-encode the original and every named variant. Reads the
 * source from disk and writes each output to `outDir`, so a large upload is never held in memory whole.
 */
export interface ImageSource {
  path: string;
  filename: string;
  size: number;
}

export async function processImage(source: ImageSource, options: ImageOptions, outDir: string, limits: ImageLimits): Promise<ProcessedImage> {
  const { path: sourcePath, filename } = source;
  const started = Date.now();
  const input = { limitInputPixels: limits.maxPixels, failOn: 'warning' as const, sequentialRead: true };
  let meta: sharp.Metadata;
  try {
    meta = await sharp(sourcePath, input).metadata();
  } catch (error) {
    throw invalidImage(filename, (error as Error).message);
  }
  if (!meta.format || !ACCEPTED_INPUT.has(meta.format) || !meta.width || !meta.height) throw invalidImage(filename, 'unsupported format');
  if (meta.width * meta.height > limits.maxPixels) throw invalidImage(filename, `more than ${limits.maxPixels} pixels`);
  const format = options.format === 'original' ? (ENCODABLE.has(meta.format) ? meta.format : 'jpeg') : options.format;
  const base = () => {
    const pipeline = sharp(sourcePath, input).rotate();
    return options.stripExif ? pipeline : pipeline.keepMetadata();
  };
  const extension = format === 'jpeg' ? 'jpg' : format;
  const render = async (name: string, pipeline: Sharp): Promise<ProcessedRendition> => {
    const path = join(outDir, `${name}.${extension}`);
    const info = await encode(pipeline, format, options.quality).toFile(path);
    return { path, width: info.width, height: info.height, size: info.size, format };
  };
  try {
    const specs = computeVariants(options);
    const jobs = [() => render('original', base()), ...specs.map((spec) => () => render(spec.name, base().resize(spec.width, spec.height, { fit: spec.fit })))];
    // Each pipeline holds decoded pixels; past a few megapixels, render one at a time so memory stays bounded.
    const [original, ...rendered] = meta.width * meta.height > SEQUENTIAL_ABOVE_PIXELS ? await sequential(jobs) : await Promise.all(jobs.map((job) => job()));
    const variants = Object.fromEntries(specs.map((spec, index) => [spec.name, rendered[index] as ProcessedRendition]));
    return {
      original: original as ProcessedRendition,
      variants,
      metadata: { originalFormat: meta.format, originalSize: source.size, exifStripped: options.stripExif, processingTime: Date.now() - started },
    };
  } catch (error) {
    throw invalidImage(filename, (error as Error).message);
  }
}
