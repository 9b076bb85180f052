import fc from 'fast-check';
import { EventError } from './events.errors';
import { computeVariants, parseImageOptions } from './image-options';

const parse = (value: unknown) => parseImageOptions(value, 'cover.options');
const fieldOf = (value: unknown) => {
  try {
    parse(value);
  } catch (error) {
    return (error as EventError).details?.['field'];
  }
  return undefined;
};

describe('parseImageOptions (union discriminated by mode)', () => {
  it('applies the shared defaults (quality 85, webp, stripExif, fit cover; inside for original-aspect)', () => {
    expect(parse({ mode: 'exact-dimensions', dimensions: { a: { width: 50, height: 10000 } } })).toEqual({
      mode: 'exact-dimensions',
      dimensions: { a: { width: 50, height: 10000 } },
      quality: 85,
      format: 'webp',
      stripExif: true,
      fit: 'cover',
    });
    expect(parse({ mode: 'original-aspect', sizes: { a: 100 } }).fit).toBe('inside');
  });

  it.each([
    [{ mode: 'exact-dimensions' }, 'cover.options.dimensions'],
    [{ mode: 'exact-dimensions', dimensions: {} }, 'cover.options.dimensions'],
    [{ mode: 'exact-dimensions', dimensions: { a: { width: 49, height: 100 } } }, 'cover.options.dimensions.a.width'],
    [
      { mode: 'exact-dimensions', dimensions: { a: { width: 100, height: 10001 } } },
      'cover.options.dimensions.a.height',
    ],
    [
      { mode: 'exact-dimensions', dimensions: { original: { width: 100, height: 100 } } },
      'cover.options.dimensions.original',
    ],
    [{ mode: 'aspect-ratio-width-based', widths: { a: 100 } }, 'cover.options.aspectRatio'],
    [
      { mode: 'aspect-ratio-width-based', aspectRatio: { width: 0, height: 1 }, widths: { a: 100 } },
      'cover.options.aspectRatio.width',
    ],
    [
      { mode: 'aspect-ratio-height-based', aspectRatio: { width: 1, height: 1 }, widths: { a: 100 } },
      'cover.options.widths',
    ],
    [{ mode: 'original-aspect', sizes: { a: 100 }, fit: 'contain' }, 'cover.options.fit'],
    [{ mode: 'multi-aspect-ratio', aspectRatios: [], sizes: { a: 100 } }, 'cover.options.aspectRatios'],
    [
      {
        mode: 'multi-aspect-ratio',
        aspectRatios: Array.from({ length: 11 }, () => ({ width: 1, height: 1 })),
        sizes: { a: 100 },
      },
      'cover.options.aspectRatios',
    ],
    [
      { mode: 'exact-dimensions', dimensions: { a: { width: 100, height: 100 } }, format: 'gif' },
      'cover.options.format',
    ],
    [{ mode: 'exact-dimensions', dimensions: { a: { width: 100, height: 100 } }, quality: 0 }, 'cover.options.quality'],
    [
      { mode: 'exact-dimensions', dimensions: { a: { width: 100, height: 100 } }, stripExif: 'no' },
      'cover.options.stripExif',
    ],
    [{ mode: 'resize' }, 'cover.options.mode'],
    [[], 'cover.options'],
  ])('rejects %j naming %s', (value, field) => {
    expect(fieldOf(value)).toBe(field);
  });

  it('throws only event/invalid-body errors for any input, and valid results always yield variants in range', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              mode: fc.constantFrom(
                'exact-dimensions',
                'aspect-ratio-width-based',
                'aspect-ratio-height-based',
                'original-aspect',
                'multi-aspect-ratio',
              ),
              sizes: fc.dictionary(fc.string(), fc.integer()),
              widths: fc.dictionary(fc.string(), fc.integer()),
              aspectRatio: fc.record({ width: fc.double(), height: fc.double() }),
            },
            { requiredKeys: ['mode'] },
          ),
        ),
        (value) => {
          try {
            const options = parse(value);
            for (const variant of computeVariants(options)) {
              expect(variant.width).toBeGreaterThanOrEqual(1);
              expect(variant.height).toBeGreaterThanOrEqual(1);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(EventError);
            expect((error as EventError).code).toBe('EVENT_INVALID_INPUT');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('computeVariants', () => {
  const common = { quality: 85, format: 'webp' as const, stripExif: true, fit: 'cover' as const };
  it('derives the other side from the ratio and names multi-aspect variants by size and ratio', () => {
    expect(
      computeVariants({
        ...common,
        mode: 'aspect-ratio-width-based',
        aspectRatio: { width: 16, height: 9 },
        widths: { card: 320 },
      }),
    ).toEqual([{ name: 'card', width: 320, height: 180, fit: 'cover' }]);
    expect(
      computeVariants({
        ...common,
        mode: 'aspect-ratio-height-based',
        aspectRatio: { width: 3, height: 2 },
        heights: { h: 200 },
      }),
    ).toEqual([{ name: 'h', width: 300, height: 200, fit: 'cover' }]);
    expect(computeVariants({ ...common, fit: 'inside', mode: 'original-aspect', sizes: { md: 500 } })).toEqual([
      { name: 'md', width: 500, height: 500, fit: 'inside' },
    ]);
    expect(
      computeVariants({
        ...common,
        mode: 'multi-aspect-ratio',
        aspectRatios: [
          { width: 1, height: 1 },
          { width: 4, height: 3 },
        ],
        sizes: { s: 120 },
      }),
    ).toEqual([
      { name: 's-1x1', width: 120, height: 120, fit: 'cover' },
      { name: 's-4x3', width: 120, height: 90, fit: 'cover' },
    ]);
  });
});
