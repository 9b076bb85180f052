import { ImageFit, MAX_SIZE, VariantSpec } from './image-options';

/**
 * What one rendition will be, computed from the source's header before any pixel is decoded, so a request's cost
 * is known (and refused) up front. Mirrors sharp's `resize` with `withoutEnlargement` (docs/decisions: no mode
 * enlarges; `contain` keeps its box, letterboxed, because its contract is the box; apps/community-api/README.md).
 */
export interface RenditionPlan {
  /** The output's size. */
  width: number;
  height: number;
  /** What sharp is asked for (always with `withoutEnlargement`). */
  resize: { width: number; height: number; fit: ImageFit };
}

export interface SourceSize {
  width: number;
  height: number;
}

/**
 * Each rendition costs at least this many pixels in the request budget: a file opened, encoded, written and stored
 * is not free however small, and 2,200 tiny renditions must not slip under a budget meant for pixels.
 */
export const RENDITION_FLOOR_PIXELS = 250_000;

const scaled = (source: SourceSize, scale: number): SourceSize => ({
  width: Math.max(1, Math.round(source.width * scale)),
  height: Math.max(1, Math.round(source.height * scale)),
});

/** The stored original: the source itself, shrunk to fit 10,000 px a side when a side is longer. */
export function planOriginal(source: SourceSize): RenditionPlan {
  const scale = Math.min(1, MAX_SIZE / source.width, MAX_SIZE / source.height);
  return { ...scaled(source, scale), resize: { width: MAX_SIZE, height: MAX_SIZE, fit: 'inside' } };
}

/** A named variant's output size; `outside` past 10,000 px a side falls back to fitting inside 10,000 x 10,000. */
export function planVariant(source: SourceSize, spec: VariantSpec): RenditionPlan {
  const { width, height, fit } = spec;
  const resize = { width, height, fit };
  switch (fit) {
    case 'cover':
      return { width: Math.min(width, source.width), height: Math.min(height, source.height), resize };
    case 'contain':
      return { width, height, resize };
    case 'inside':
      return { ...scaled(source, Math.min(1, width / source.width, height / source.height)), resize };
    case 'outside': {
      const size = scaled(source, Math.min(1, Math.max(width / source.width, height / source.height)));
      if (size.width <= MAX_SIZE && size.height <= MAX_SIZE) return { ...size, resize };
      return planOriginal(source);
    }
  }
}

/** The pixels a rendition costs in the per-request budget. */
export const renditionCost = (plan: RenditionPlan): number =>
  Math.max(RENDITION_FLOOR_PIXELS, plan.width * plan.height);
