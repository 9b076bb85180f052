import type { FormatEnum, Sharp } from 'sharp';

type ImageLibrary = typeof import('sharp');
let library: ImageLibrary | undefined;

/**
 * sharp, loaded on the first image a process handles: loading it maps libvips and its codecs (~10 MB resident), which a
 * service that never sees an upload should not carry from its start (docs/benchmarks/start-up.md).
 *
 * libvips settings for a service that processes uploads, each image seen once (figures:
 * docs/benchmarks/community-api.md, events):
 * - operation cache off: it only pays when the same operation runs on the same input again, which never happens
 *   across uploads; left on, it keeps up to 50 MB of pixels and 20 open (already deleted) temp files per process.
 * - one libvips worker thread per operation: parallelism comes from libuv's pool (one sharp job per thread, 4 by
 *   default), so a 10-image gallery already keeps every core busy; more threads per operation only contend. sharp
 *   picks 1 itself on glibc without jemalloc and the core count with it; pinning it keeps both alike.
 */
export function imageLibrary(): ImageLibrary {
  if (!library) {
    const sharp = require('sharp') as ImageLibrary;
    sharp.cache(false);
    sharp.concurrency(1);
    library = sharp;
  }
  return library;
}

/**
 * Encoder settings, each chosen for upload processing:
 * - webp `effort: 2` (libwebp method 2, default 4): about half the CPU time on 2 MP photos for files about 10% larger
 *   at the same quality, and methods >= 3 need more than twice the memory on large images (a 16 MP original:
 *   +345 MB peak at 4, +148 MB at 2).
 * - jpeg with libjpeg-turbo's defaults, not mozjpeg (about 8x slower for a few percent).
 * - png `compressionLevel: 6` (zlib's default balance); `quality` asks for palette quantisation as before.
 * - avif/gif/tiff (only reachable with `format: original`) keep sharp's defaults.
 */
export function encode(pipeline: Sharp, format: string, quality: number): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality, mozjpeg: false });
    case 'png':
      return pipeline.png({ quality, compressionLevel: 6 });
    case 'webp':
      return pipeline.webp({ quality, effort: 2 });
    case 'avif':
      return pipeline.avif({ quality });
    default:
      return pipeline.toFormat(format as keyof FormatEnum);
  }
}
