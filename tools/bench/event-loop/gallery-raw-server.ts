/**
 * The raw-sharp baseline for gallery.ts: a bare node:http server with `GET /health` and `POST /run {mode, paths,
 * variants, outDir}` doing with plain sharp what the app does for a gallery (decode once per image to raw pixels,
 * then every rendition resized and encoded as webp quality 85, effort 2), none of the app's code. Modes:
 * - `shared`: each rendition is a new sharp input over the one decoded buffer (what the app does since issue 25);
 * - `clone`: each rendition is `clone()` of one sharp input (the app before issue 25: sharp structuredClones its
 *   options, pixel buffer included, on the main thread).
 * Started with the services' V8 flags and allocator, like the app (gallery.ts).
 */
import { createServer } from 'node:http';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { Sharp } from 'sharp';

interface Variant {
  name: string;
  width: number;
  height: number;
}
interface Job {
  mode: 'shared' | 'clone';
  paths: string[];
  variants: Variant[];
  outDir: string;
}

sharp.cache(false);
sharp.concurrency(1);

async function gallery(job: Job): Promise<number> {
  const one = async (path: string, index: number) => {
    const dir = join(job.outDir, String(index));
    mkdirSync(dir, { recursive: true });
    const { data, info } = await sharp(path).rotate().raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const shared = sharp(data, raw);
    const input = (): Sharp => (job.mode === 'clone' ? shared.clone() : sharp(data, raw));
    const render = (name: string, pipeline: Sharp) =>
      pipeline.webp({ quality: 85, effort: 2 }).toFile(join(dir, `${name}.webp`));
    await Promise.all([
      render('original', input()),
      ...job.variants.map((v) =>
        render(v.name, input().resize(v.width, v.height, { fit: 'cover', withoutEnlargement: true })),
      ),
    ]);
  };
  const started = performance.now();
  await Promise.all(job.paths.map(one));
  const ms = performance.now() - started;
  rmSync(job.outDir, { recursive: true, force: true });
  return ms;
}

const server = createServer((request, response) => {
  if (request.url === '/health') {
    response.end('{"status":"ok"}');
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void gallery(JSON.parse(Buffer.concat(chunks).toString()) as Job).then(
      (ms) => response.end(JSON.stringify({ ms })),
      (error: Error) => {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: error.message }));
      },
    );
  });
});
server.listen(Number(process.env['PORT']), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
