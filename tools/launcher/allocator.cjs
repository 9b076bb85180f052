// The allocator every service process runs with (allocator.json, see its "why"): jemalloc preloaded where installed,
// else glibc capped at two arenas. One module for the launchers (.mjs) and the TypeScript benches (require): callers
// spread it under their own environment, so an LD_PRELOAD or MALLOC_* the caller set wins.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** @returns {Record<string, string>} */
function allocatorEnv() {
  const allocator = JSON.parse(readFileSync(join(__dirname, 'allocator.json'), 'utf8'));
  const jemalloc = allocator.jemalloc.find((path) => existsSync(path));
  return jemalloc ? { LD_PRELOAD: jemalloc, ...allocator.jemallocEnv } : { ...allocator.fallback };
}

module.exports = { allocatorEnv };
