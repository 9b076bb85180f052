import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { parseImageOptions } from './image-options';
import { processImage } from './image-processor';

/**
 * The two paths of processImage (decode once for small sources with metadata stripped; stream per rendition when
 * metadata is kept or the source is large) must give the same renditions: sizes, format, orientation.
 */
describe('processImage: decode-once and per-rendition paths agree', () => {
  let dir: string;
  let source: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'image-processor-'));
    source = join(dir, 'rotated.jpg');
    // 300x200 stored pixels, EXIF orientation 6: shown as 200x300 once auto-oriented.
    const stored = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 40, b: 90 } },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    writeFileSync(source, stored);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (stripExif: boolean, raw: Record<string, unknown>) => {
    const out = mkdtempSync(join(dir, 'out-'));
    const result = await processImage(
      { path: source, filename: 'rotated.jpg', size: 1 },
      parseImageOptions({ ...raw, stripExif }, 'options'),
      out,
      { maxPixels: 1_000_000 },
    );
    const dims = (r: { width: number; height: number; format: string }) => `${r.width}x${r.height} ${r.format}`;
    return {
      original: dims(result.original),
      variants: Object.fromEntries(Object.entries(result.variants).map(([name, r]) => [name, dims(r)])),
    };
  };

  it.each([
    [
      'exact-dimensions, cover',
      { mode: 'exact-dimensions', dimensions: { thumb: { width: 50, height: 50 }, wide: { width: 160, height: 90 } } },
    ],
    [
      'exact-dimensions, contain, jpeg',
      { mode: 'exact-dimensions', fit: 'contain', format: 'jpeg', dimensions: { box: { width: 120, height: 60 } } },
    ],
    ['original-aspect, inside, png', { mode: 'original-aspect', format: 'png', sizes: { small: 100, big: 250 } }],
  ])('%s', async (_, raw) => {
    const once = await run(true, raw);
    const streamed = await run(false, raw);
    expect(once).toEqual(streamed);
    expect(once.original.startsWith('200x300')).toBe(true);
  });

  it('decodes once without the pixels ever reaching the main thread, and leaves only the renditions', async () => {
    // A Buffer of pixels (toBuffer) or a clone() puts ~9 MB per 2 MP photo on the JS heap's books: copies on the
    // main thread, and full collections there (issue 25).
    const toBuffer = jest.spyOn(sharp.prototype, 'toBuffer');
    const clone = jest.spyOn(sharp.prototype, 'clone');
    const out = mkdtempSync(join(dir, 'out-'));
    try {
      await processImage(
        { path: source, filename: 'rotated.jpg', size: 1 },
        parseImageOptions({ mode: 'original-aspect', format: 'webp', sizes: { s: 60, m: 120 } }, 'options'),
        out,
        { maxPixels: 1_000_000 },
      );
      expect(toBuffer).not.toHaveBeenCalled();
      expect(clone).not.toHaveBeenCalled();
      expect(readdirSync(out).sort()).toEqual(['m.webp', 'original.webp', 's.webp']);
    } finally {
      toBuffer.mockRestore();
      clone.mockRestore();
    }
  });
});
