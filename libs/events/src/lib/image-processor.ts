import { join } from 'node:path';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { encode, imageLibrary } from './image-encoding';
import { EventError, EventErrorCode } from './events.errors';
import { computeVariants, ImageOptions, VariantSpec } from './image-options';
import type { ImageFileMetadata } from './event-file.entity';

/** Formats we decode; anything else sharp might read (SVG, PDF, raw) is not an image upload. */
const ACCEPTED_INPUT = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff', 'heif']);
const ENCODABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff']);

/**
 * Up to this size a source is decoded once and its pixels (at most 32 MB as RGBA) shared by every rendition; above
 * it the renditions stream from the file one at a time, because a full-size copy plus the encoders' own buffers
 * would exceed what one upload may take (see the 48 MB PNG figure in apps/community-api/README.md).
 */
const DECODE_ONCE_MAX_PIXELS = 8_000_000;

type InputOptions = SharpOptions;

/**
 * Decoding once needs the pixels alone: kept metadata (EXIF, ICC) would be lost with them, more than 8 bits per
 * sample would be narrowed, and only the first frame of an animation is read anyway.
 */
function decodeOnce(meta: Metadata, options: ImageOptions): boolean {
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  return options.stripExif && pixels <= DECODE_ONCE_MAX_PIXELS && meta.depth === 'uchar' && (meta.pages ?? 1) === 1;
}

/** The source decoded, auto-oriented and converted to sRGB, as a sharp input whose clones share the pixels. */
async function decodedPixels(sourcePath: string, input: InputOptions): Promise<Sharp> {
  const sharp = imageLibrary();
  const { data, info } = await sharp(sourcePath, input).rotate().raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

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

/**
 * Decode, orient, strip EXIF (unless asked not to), re-encode the original and every named variant. Reads the
 * source from disk and writes each output to `outDir`; only a source of at most 8 MP is held decoded in memory.
 */
export interface ImageSource {
  path: string;
  filename: string;
  size: number;
}

export async function processImage(
  source: ImageSource,
  options: ImageOptions,
  outDir: string,
  limits: ImageLimits,
): Promise<ProcessedImage> {
  const { path: sourcePath, filename } = source;
  const started = Date.now();
  const input = { limitInputPixels: limits.maxPixels, failOn: 'warning' as const, sequentialRead: true };
  let meta: Metadata;
  try {
    meta = await imageLibrary()(sourcePath, input).metadata();
  } catch (error) {
    throw invalidImage(filename, (error as Error).message);
  }
  if (!meta.format || !ACCEPTED_INPUT.has(meta.format) || !meta.width || !meta.height)
    throw invalidImage(filename, 'unsupported format');
  if (meta.width * meta.height > limits.maxPixels) throw invalidImage(filename, `more than ${limits.maxPixels} pixels`);
  const format = options.format === 'original' ? (ENCODABLE.has(meta.format) ? meta.format : 'jpeg') : options.format;
  const extension = format === 'jpeg' ? 'jpg' : format;
  const render = async (name: string, pipeline: Sharp): Promise<ProcessedRendition> => {
    const path = join(outDir, `${name}.${extension}`);
    const info = await encode(pipeline, format, options.quality).toFile(path);
    return { path, width: info.width, height: info.height, size: info.size, format };
  };
  try {
    const specs = computeVariants(options);
    const resized = (pipeline: Sharp, spec: VariantSpec) => pipeline.resize(spec.width, spec.height, { fit: spec.fit });
    let original: ProcessedRendition;
    let rendered: ProcessedRendition[];
    if (decodeOnce(meta, options)) {
      // One decode (oriented, sRGB) into memory; every rendition resizes and encodes a clone of those pixels.
      const decoded = await decodedPixels(sourcePath, input);
      [original, ...rendered] = await Promise.all([
        render('original', decoded.clone()),
        ...specs.map((spec) => render(spec.name, resized(decoded.clone(), spec))),
      ]);
    } else {
      // Large (or metadata-keeping) sources stream from the file once per rendition, so no full-size copy of the
      // pixels is held (and sharp shrinks JPEG and WebP on load where a variant allows); past a few megapixels one
      // rendition at a time, so memory stays bounded.
      const base = () => {
        const pipeline = imageLibrary()(sourcePath, input).rotate();
        return options.stripExif ? pipeline : pipeline.keepMetadata();
      };
      const jobs = [
        () => render('original', base()),
        ...specs.map((spec) => () => render(spec.name, resized(base(), spec))),
      ];
      [original, ...rendered] =
        meta.width * meta.height > DECODE_ONCE_MAX_PIXELS
          ? await sequential(jobs)
          : await Promise.all(jobs.map((job) => job()));
    }
    const variants = Object.fromEntries(specs.map((spec, index) => [spec.name, rendered[index] as ProcessedRendition]));
    return {
      original,
      variants,
      metadata: {
        originalFormat: meta.format,
        originalSize: source.size,
        exifStripped: options.stripExif,
        processingTime: Date.now() - started,
      },
    };
  } catch (error) {
    throw invalidImage(filename, (error as Error).message);
  }
}
