/**
 * After a burst of Buffer-heavy work (community-api's images: decoded pixels, staged chunks) the Buffers are
 * unreferenced, but an idle process with a small V8 heap runs no major GC, so they stay resident
 * (apps/community-api/README.md, Benchmark: events: 304 MB of external memory 60 s after the 5-round run).
 * When the services run with `--expose-gc` (tools/launcher/node-flags.json), one full collection runs once no
 * call has come for IDLE_MS, so never during a burst; without the flag this does nothing.
 */
const IDLE_MS = 2000;
let timer: NodeJS.Timeout | undefined;

export function collectWhenIdle(): void {
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
