import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { TestingModuleBuilder } from '@nestjs/testing';
import sharp from 'sharp';
import { API, CommunityTestApp, JsonResponse, TestProject, TestUser } from './community-app';

/** Generated test images: solid or noisy JPEG/PNG, with EXIF, truncated, or a header claiming huge dimensions. */
export const images = {
  async jpeg(width = 640, height = 480, options: { exif?: boolean; noise?: boolean } = {}): Promise<Buffer> {
    const base = options.noise
      ? sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 2654435761) % 251)), {
          raw: { width, height, channels: 3 },
        })
      : sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
    const encoded = base.jpeg({ quality: 90 });
    return (
      options.exif
        ? encoded.withExif({ IFD0: { Copyright: 'secret-exif-copyright', Artist: 'Secret Artist' } })
        : encoded
    ).toBuffer();
  },
  async png(width = 320, height = 200): Promise<Buffer> {
    return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } })
      .png()
      .toBuffer();
  },
  /** A valid PNG whose header claims `width`×`height`: the pixel limit must refuse it before decoding. */
  pngBomb(width = 30000, height = 30000): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
    const row = Buffer.alloc(width + 1);
    const data = deflateSync(Buffer.concat(Array.from({ length: 64 }, () => row)));
    return Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', header),
      chunk('IDAT', data),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  },
  async truncatedJpeg(): Promise<Buffer> {
    const full = await images.jpeg(800, 600, { noise: true });
    return full.subarray(0, Math.floor(full.length / 2));
  },
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const exactOptions = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    mode: 'exact-dimensions',
    dimensions: { thumb: { width: 100, height: 100 }, card: { width: 400, height: 300 } },
    ...extra,
  });

export const futureIso = (hours = 48) => new Date(Date.now() + hours * 3600_000).toISOString();

export const onlineEvent = (extra: Record<string, unknown> = {}) => ({
  title: 'Launch party',
  startTime: futureIso(),
  type: 'online',
  url: 'https://meet.example.com/x',
  ...extra,
});

export type FilePart = { field: string; name: string; data: Buffer; type?: string };

/** A multipart POST through fetch's own FormData encoder. */
export async function postMultipart(
  t: CommunityTestApp,
  projectId: string,
  token: string,
  fields: Record<string, string>,
  files: FilePart[] = [],
): Promise<JsonResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files)
    form.append(
      file.field,
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const response = await fetch(`${t.url}${API(projectId)}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: response.status, body, headers: response.headers };
}

/** A community app with its own storage directory, plus a project and a signed-up user. */
export async function startEventsApp(
  env: Record<string, string> = {},
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder,
) {
  const storageDir = await mkdtemp(join(tmpdir(), 'events-storage-'));
  const uploadDir = await mkdtemp(join(tmpdir(), 'events-upload-'));
  const t = await CommunityTestApp.start({
    env: { STORAGE_DIR: storageDir, UPLOAD_TMP_DIR: uploadDir, ...env },
    override,
  });
  return {
    t,
    storageDir,
    uploadDir,
    async close() {
      await t.close();
      await rm(storageDir, { recursive: true, force: true });
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

export async function listFilesRecursive(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

export async function createEvent(
  t: CommunityTestApp,
  project: TestProject,
  user: TestUser,
  body: Record<string, unknown>,
) {
  return t.request('POST', `${API(project.id)}/events`, { token: user.accessToken, body });
}
