// The allocator every service process runs with (allocator.json, see its "why"): jemalloc preloaded where installed,
// else glibc capped at two arenas. Callers spread it under their own environment, so an LD_PRELOAD or MALLOC_* the
// caller set wins. (tools/bench/support/processes.ts reads the same JSON for the TypeScript benches.)
import { existsSync, readFileSync } from 'node:fs';

export function allocatorEnv() {
  const allocator = JSON.parse(readFileSync(new URL('./allocator.json', import.meta.url), 'utf8'));
  const jemalloc = allocator.jemalloc.find((path) => existsSync(path));
  return jemalloc ? { LD_PRELOAD: jemalloc, ...allocator.jemallocEnv } : { ...allocator.fallback };
}
