import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metadata, Sharp } from 'sharp';
import { encode, imageLibrary } from './image-encoding';
import { EventErrors } from './events.errors';
import { computeVariants, ImageOptions } from './image-options';
import type { ImageFileMetadata } from './event-file.entity';
import { planOriginal, planVariant, RenditionPlan, renditionCost, SourceSize } from './rendition-plan';
import { RenditionPool } from './rendition-pool';

/** Formats we decode; anything else sharp might read (SVG, PDF, raw) is not an image upload. */
const ACCEPTED_INPUT = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff', 'heif']);
const ENCODABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff']);

/**
 * Up to this size a source is decoded once into an uncompressed file (at most 32 MB as RGBA) that every rendition
 * reads; above it the renditions stream from the upload one at a time, because a full-size decode plus the encoders'
 * own buffers would exceed what one upload may take (see the 48 MB PNG figure in docs/benchmarks/community-api.md).
 */
const DECODE_ONCE_MAX_PIXELS = 8_000_000;
/** The decoded source in libvips' own format; a variant's file always has an image extension, never `.v`. */
const DECODED_FILE = 'decoded.v';

export interface ImageLimits {
  /** Decompression-bomb guard: width × height of the source. */
  maxPixels: number;
  /** The instance's image queue; a private one of 4 when not given (tests, benchmarks). */
  pool?: RenditionPool;
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

export interface ImageSource {
  path: string;
  filename: string;
  size: number;
}

/** A source whose header was read and accepted: nothing decoded yet. */
export interface ProbedImage {
  source: ImageSource;
  meta: Metadata;
  /** Width and height once auto-oriented (EXIF orientations 5-8 swap them). */
  oriented: SourceSize;
}

/** Every rendition of one image with its output size, and what it costs in the request's pixel budget. */
export interface ImagePlan {
  original: RenditionPlan;
  variants: { name: string; plan: RenditionPlan }[];
  pixels: number;
}

const inputOptions = (limits: ImageLimits) => ({
  limitInputPixels: limits.maxPixels,
  failOn: 'warning' as const,
  sequentialRead: true,
});

/** Reads the header only (libvips, off the main thread): refuses non-images and pixel bombs before any decode. */
export async function probeImage(source: ImageSource, limits: ImageLimits): Promise<ProbedImage> {
  const { path, filename } = source;
  let meta: Metadata;
  try {
    meta = await imageLibrary()(path, inputOptions(limits)).metadata();
  } catch (error) {
    throw EventErrors.invalidImage(filename, (error as Error).message);
  }
  if (!meta.format || !ACCEPTED_INPUT.has(meta.format) || !meta.width || !meta.height)
    throw EventErrors.invalidImage(filename, 'unsupported format');
  if (meta.width * meta.height > limits.maxPixels)
    throw EventErrors.invalidImage(filename, `more than ${limits.maxPixels} pixels`);
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return { source, meta, oriented };
}

export function planImage(probed: ProbedImage, options: ImageOptions): ImagePlan {
  const original = planOriginal(probed.oriented);
  const variants = computeVariants(options).map((spec) => ({
    name: spec.name,
    plan: planVariant(probed.oriented, spec),
  }));
  const pixels = [original, ...variants.map((variant) => variant.plan)].reduce(
    (sum, plan) => sum + renditionCost(plan),
    0,
  );
  return { original, variants, pixels };
}

/**
 * Decoding once needs the pixels alone: kept metadata (EXIF, ICC) would be lost with them, more than 8 bits per
 * sample would be narrowed, and only the first frame of an animation is read anyway.
 */
function decodeOnce(meta: Metadata, options: ImageOptions): boolean {
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  return options.stripExif && pixels <= DECODE_ONCE_MAX_PIXELS && meta.depth === 'uchar' && (meta.pages ?? 1) === 1;
}

const resized = (pipeline: Sharp, plan: RenditionPlan, source: SourceSize): Sharp =>
  plan.width === source.width && plan.height === source.height
    ? pipeline
    : pipeline.resize(plan.resize.width, plan.resize.height, { fit: plan.resize.fit, withoutEnlargement: true });

async function inSequence<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (const job of jobs) results.push(await job());
  return results;
}

let defaultPool: RenditionPool | undefined;

/**
 * Decode, orient, strip EXIF (unless asked not to), re-encode the original and every named variant, each job through
 * the instance's pool. Reads the source from disk and writes each output to `outDir`; only a source of at most 8 MP
 * is held decoded in memory.
 */
export async function renderImage(
  probed: ProbedImage,
  options: ImageOptions,
  outDir: string,
  limits: ImageLimits,
): Promise<ProcessedImage> {
  const { source, meta, oriented } = probed;
  const pool = limits.pool ?? (defaultPool ??= new RenditionPool(4));
  const input = inputOptions(limits);
  const started = Date.now();
  const plan = planImage(probed, options);
  const format =
    options.format === 'original' ? (ENCODABLE.has(meta.format ?? '') ? meta.format : 'jpeg') : options.format;
  const extension = format === 'jpeg' ? 'jpg' : format;
  const named = [{ name: 'original', plan: plan.original }, ...plan.variants];
  const render = async (name: string, pipeline: Sharp): Promise<ProcessedRendition> => {
    const path = join(outDir, `${name}.${extension}`);
    const info = await encode(pipeline, format as string, options.quality).toFile(path);
    return { path, width: info.width, height: info.height, size: info.size, format: format as string };
  };
  try {
    let rendered: ProcessedRendition[];
    if (decodeOnce(meta, options)) {
      // One decode (oriented) into an uncompressed libvips file next to the outputs; each rendition maps that file.
      // Neither the pixels nor a copy of them ever become a JS Buffer: sharp's clone() copied them on the main thread,
      // and a decoded Buffer per image (~9 MB each) was external memory that set off full collections on the main
      // thread in the middle of a gallery (issue 25; apps/community-api/README.md, "Gallery and the event loop").
      const decoded = join(outDir, DECODED_FILE);
      await pool.run('decode', () => imageLibrary()(source.path, input).rotate().toFile(decoded));
      try {
        rendered = await Promise.all(
          named.map(({ name, plan: each }) =>
            pool.run('rendition', () => render(name, resized(imageLibrary()(decoded, input), each, oriented))),
          ),
        );
      } finally {
        await rm(decoded, { force: true });
      }
    } else {
      // Large (or metadata-keeping) sources stream from the file once per rendition, so no full-size copy of the
      // pixels is held (and sharp shrinks JPEG and WebP on load where a variant allows); past a few megapixels one
      // rendition at a time, so memory stays bounded.
      const base = () => {
        const pipeline = imageLibrary()(source.path, input).rotate();
        return options.stripExif ? pipeline : pipeline.keepMetadata();
      };
      const jobs = named.map(
        ({ name, plan: each }) =>
          () =>
            pool.run('rendition', () => render(name, resized(base(), each, oriented))),
      );
      rendered =
        oriented.width * oriented.height > DECODE_ONCE_MAX_PIXELS
          ? await inSequence(jobs)
          : await Promise.all(jobs.map((job) => job()));
    }
    const [original, ...variants] = rendered as [ProcessedRendition, ...ProcessedRendition[]];
    return {
      original,
      variants: Object.fromEntries(
        plan.variants.map(({ name }, index) => [name, variants[index] as ProcessedRendition]),
      ),
      metadata: {
        originalFormat: meta.format as string,
        originalSize: source.size,
        exifStripped: options.stripExif,
        processingTime: Date.now() - started,
      },
    };
  } catch (error) {
    throw EventErrors.invalidImage(source.filename, (error as Error).message);
  }
}

/** Probe and render one image (tests and benchmarks; the service probes every image of a request first). */
export async function processImage(
  source: ImageSource,
  options: ImageOptions,
  outDir: string,
  limits: ImageLimits,
): Promise<ProcessedImage> {
  return renderImage(await probeImage(source, limits), options, outDir, limits);
}
