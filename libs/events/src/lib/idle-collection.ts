/**
 * After an image burst the decoded pixels and staged chunks are Buffers no JavaScript references, but an idle
 * process with a small V8 heap runs no major GC, so they stay resident (apps/community-api/README.md, Benchmark:
 * events: 304 MB of external memory 60 s after the 5-round run). When the services run with `--expose-gc`
 * (tools/launcher/node-flags.json), one full collection runs once no image has been processed for IDLE_MS;
 * without the flag this does nothing.
 */
const IDLE_MS = 2000;
let timer: NodeJS.Timeout | undefined;

export function collectWhenImagesIdle(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    gc();
  }, IDLE_MS);
  // Never keeps a draining process alive.
  timer.unref();
}
