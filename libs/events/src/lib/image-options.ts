import { EventErrors } from './events.errors';
import { intInRange, oneOf, positiveNumber, rejectUnknown, requireObject } from './field-checks';

export const IMAGE_FORMATS = ['webp', 'jpeg', 'png', 'original'] as const;
export const IMAGE_FITS = ['cover', 'contain', 'inside', 'outside'] as const;
export const IMAGE_MODES = [
  'exact-dimensions',
  'aspect-ratio-width-based',
  'aspect-ratio-height-based',
  'original-aspect',
  'multi-aspect-ratio',
] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageFit = (typeof IMAGE_FITS)[number];

export const MIN_SIZE = 50;
export const MAX_SIZE = 10000;
const MAX_VARIANTS = 20;
/** The most elongated aspect ratio accepted, either way (1:20 or 20:1). */
export const MAX_ASPECT_RATIO = 20;

interface CommonOptions {
  quality: number;
  format: ImageFormat;
  stripExif: boolean;
  fit: ImageFit;
}
export interface AspectRatio {
  width: number;
  height: number;
}
export type ImageOptions = CommonOptions &
  (
    | { mode: 'exact-dimensions'; dimensions: Record<string, { width: number; height: number }> }
    | { mode: 'aspect-ratio-width-based'; aspectRatio: AspectRatio; widths: Record<string, number> }
    | { mode: 'aspect-ratio-height-based'; aspectRatio: AspectRatio; heights: Record<string, number> }
    | { mode: 'original-aspect'; sizes: Record<string, number> }
    | { mode: 'multi-aspect-ratio'; aspectRatios: AspectRatio[]; sizes: Record<string, number> }
  );

/** One output of the pipeline: resize to `width`×`height` with `fit` (both bound the box for inside/outside). */
export interface VariantSpec {
  name: string;
  width: number;
  height: number;
  fit: ImageFit;
}

const COMMON_KEYS = ['mode', 'quality', 'format', 'stripExif', 'fit'];
const MODE_KEYS: Record<ImageOptions['mode'], string[]> = {
  'exact-dimensions': ['dimensions'],
  'aspect-ratio-width-based': ['aspectRatio', 'widths'],
  'aspect-ratio-height-based': ['aspectRatio', 'heights'],
  'original-aspect': ['sizes'],
  'multi-aspect-ratio': ['aspectRatios', 'sizes'],
};
const NAME = /^[A-Za-z0-9_-]{1,40}$/;

function namedSizes(value: unknown, field: string): Record<string, number> {
  const record = requireObject(value, field);
  const entries = Object.entries(record);
  if (entries.length === 0 || entries.length > MAX_VARIANTS)
    throw EventErrors.invalidInput(`${field} must name 1 to ${MAX_VARIANTS} variants`, field);
  for (const [name, size] of entries) {
    if (!NAME.test(name) || name === 'original')
      throw EventErrors.invalidInput(`${field} has an invalid variant name: ${name}`, field);
    intInRange(size, `${field}.${name}`, MIN_SIZE, MAX_SIZE);
  }
  return record as Record<string, number>;
}

function aspectRatio(value: unknown, field: string): AspectRatio {
  const ratio = requireObject(value, field);
  rejectUnknown(ratio, ['width', 'height'], field);
  const width = positiveNumber(ratio['width'], `${field}.width`);
  const height = positiveNumber(ratio['height'], `${field}.height`);
  if (Math.max(width / height, height / width) > MAX_ASPECT_RATIO)
    throw EventErrors.invalidInput(`${field} must be between 1:${MAX_ASPECT_RATIO} and ${MAX_ASPECT_RATIO}:1`, field);
  return { width, height };
}

/** A side derived from a ratio must stay within the sizes a client may name directly. */
function checkDerivedSides(options: ImageOptions, field: string): ImageOptions {
  for (const spec of computeVariants(options)) {
    if (spec.width > MAX_SIZE || spec.height > MAX_SIZE)
      throw EventErrors.invalidInput(
        `${field}: variant ${spec.name} would be ${spec.width}x${spec.height}; every side must be at most ${MAX_SIZE}`,
        field,
      );
  }
  return options;
}

/** Validates `cover.options` / `gallery.options` (already JSON-parsed) as the union discriminated by `mode`. */
export function parseImageOptions(raw: unknown, field: string): ImageOptions {
  return checkDerivedSides(parseOptionFields(raw, field), field);
}

function parseOptionFields(raw: unknown, field: string): ImageOptions {
  const value = requireObject(raw, field);
  const mode = oneOf(value['mode'], `${field}.mode`, IMAGE_MODES);
  rejectUnknown(value, [...COMMON_KEYS, ...MODE_KEYS[mode]], field);
  const fitChoices = mode === 'original-aspect' ? (['inside', 'outside'] as const) : IMAGE_FITS;
  const common: CommonOptions = {
    quality: value['quality'] === undefined ? 85 : intInRange(value['quality'], `${field}.quality`, 1, 100),
    format: value['format'] === undefined ? 'webp' : oneOf(value['format'], `${field}.format`, IMAGE_FORMATS),
    stripExif: value['stripExif'] === undefined ? true : strictBoolean(value['stripExif'], `${field}.stripExif`),
    fit:
      value['fit'] === undefined
        ? mode === 'original-aspect'
          ? 'inside'
          : 'cover'
        : oneOf(value['fit'], `${field}.fit`, fitChoices),
  };
  switch (mode) {
    case 'exact-dimensions': {
      const dims = requireObject(value['dimensions'], `${field}.dimensions`);
      const entries = Object.entries(dims);
      if (entries.length === 0 || entries.length > MAX_VARIANTS)
        throw EventErrors.invalidInput(
          `${field}.dimensions must name 1 to ${MAX_VARIANTS} variants`,
          `${field}.dimensions`,
        );
      const dimensions: Record<string, { width: number; height: number }> = {};
      for (const [name, box] of entries) {
        const at = `${field}.dimensions.${name}`;
        if (!NAME.test(name) || name === 'original')
          throw EventErrors.invalidInput(`${field}.dimensions has an invalid variant name: ${name}`, at);
        const size = requireObject(box, at);
        rejectUnknown(size, ['width', 'height'], at);
        dimensions[name] = {
          width: intInRange(size['width'], `${at}.width`, MIN_SIZE, MAX_SIZE),
          height: intInRange(size['height'], `${at}.height`, MIN_SIZE, MAX_SIZE),
        };
      }
      return { ...common, mode, dimensions };
    }
    case 'aspect-ratio-width-based':
      return {
        ...common,
        mode,
        aspectRatio: aspectRatio(value['aspectRatio'], `${field}.aspectRatio`),
        widths: namedSizes(value['widths'], `${field}.widths`),
      };
    case 'aspect-ratio-height-based':
      return {
        ...common,
        mode,
        aspectRatio: aspectRatio(value['aspectRatio'], `${field}.aspectRatio`),
        heights: namedSizes(value['heights'], `${field}.heights`),
      };
    case 'original-aspect':
      return { ...common, mode, sizes: namedSizes(value['sizes'], `${field}.sizes`) };
    case 'multi-aspect-ratio': {
      const ratios = value['aspectRatios'];
      if (!Array.isArray(ratios) || ratios.length < 1 || ratios.length > 10)
        throw EventErrors.invalidInput(`${field}.aspectRatios must hold 1 to 10 ratios`, `${field}.aspectRatios`);
      const aspectRatios = ratios.map((ratio, index) => aspectRatio(ratio, `${field}.aspectRatios.${index}`));
      return { ...common, mode, aspectRatios, sizes: namedSizes(value['sizes'], `${field}.sizes`) };
    }
  }
}

function strictBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw EventErrors.invalidInput(`${field} must be a boolean`, field);
  return value;
}

const derived = (size: number, numerator: number, denominator: number) =>
  Math.max(1, Math.round((size * numerator) / denominator));
const ratioLabel = (ratio: AspectRatio) => `${ratio.width}x${ratio.height}`.replace(/\./g, '_');

/**
 * The named variants every upload is resized to. Derived sides follow the ratio; in `original-aspect` the size
 * bounds both sides (fit inside: the longest side; outside: the shortest); in `multi-aspect-ratio` the size is
 * the width and each variant is named `<size>-<w>x<h>`.
 */
export function computeVariants(options: ImageOptions): VariantSpec[] {
  const fit = options.fit;
  switch (options.mode) {
    case 'exact-dimensions':
      return Object.entries(options.dimensions).map(([name, box]) => ({
        name,
        width: box.width,
        height: box.height,
        fit,
      }));
    case 'aspect-ratio-width-based': {
      const { width: rw, height: rh } = options.aspectRatio;
      return Object.entries(options.widths).map(([name, width]) => ({
        name,
        width,
        height: derived(width, rh, rw),
        fit,
      }));
    }
    case 'aspect-ratio-height-based': {
      const { width: rw, height: rh } = options.aspectRatio;
      return Object.entries(options.heights).map(([name, height]) => ({
        name,
        width: derived(height, rw, rh),
        height,
        fit,
      }));
    }
    case 'original-aspect':
      return Object.entries(options.sizes).map(([name, size]) => ({ name, width: size, height: size, fit }));
    case 'multi-aspect-ratio':
      return options.aspectRatios.flatMap((ratio) =>
        Object.entries(options.sizes).map(([name, width]) => ({
          name: `${name}-${ratioLabel(ratio)}`,
          width,
          height: derived(width, ratio.height, ratio.width),
          fit,
        })),
      );
  }
}
