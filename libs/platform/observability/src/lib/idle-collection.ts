/** How long after listening the start-up residue is first looked at: past the first health checks. */
const AFTER_START_MS = 5000;
/** The collection waits for a quiet spell: event-loop utilization under 2 % over the last window ... */
const IDLE_UTILIZATION = 0.02;
/** ... looked at every AFTER_START_MS, for at most a minute; a service busy all that time keeps its residue. */
const ATTEMPTS = 12;

/**
 * Start-up leaves a young generation grown to its maximum (~39 MB committed). On Node 24 and 26 V8's memory reducer
 * never shrinks it in an idle service (it judges the allocation rate high), so RSS stayed ~155 MB for good
 * (docs/benchmarks/start-up.md). One memory-reducing collection (V8's "last resort": full collections until nothing
 * more is freed, new space shrunk, pooled pages returned) brings it back. It pauses the loop, so it runs only in a
 * window where the loop was nearly idle, never under traffic (the 50 ms rule); without `--expose-gc` this does
 * nothing.
 */
export function releaseStartUpMemory(): void {
  const gc = (globalThis as { gc?: (options: object) => void }).gc;
  if (typeof gc !== 'function') return;
  let window = performance.eventLoopUtilization();
  const lookAgain = (attemptsLeft: number) =>
    setTimeout(() => {
      const now = performance.eventLoopUtilization();
      const quiet = performance.eventLoopUtilization(now, window).utilization < IDLE_UTILIZATION;
      window = now;
      if (quiet) gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      else if (attemptsLeft > 1) lookAgain(attemptsLeft - 1);
    }, AFTER_START_MS).unref();
  lookAgain(ATTEMPTS);
}
