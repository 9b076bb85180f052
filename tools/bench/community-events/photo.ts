import sharp from 'sharp';

/** A 2 MP JPEG with photo-like detail (smooth gradients plus noise), about 0.5-1 MB. */
export async function photo(seed: number): Promise<Buffer> {
  const width = 1600;
  const height = 1250;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = ((x * 7 + y * 13 + seed * 101) * 2654435761) >>> 24;
      raw[i] = ((x + seed * 40) % 256) ^ (n & 31);
      raw[i + 1] = ((y + seed * 20) % 256) ^ (n & 15);
      raw[i + 2] = ((x + y) % 256) ^ (n & 63);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}
