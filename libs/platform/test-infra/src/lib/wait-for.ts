/** Polls `probe` until it returns a truthy value; for state another process or instance changes. */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10000);
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
  throw new Error(`Timed out waiting for ${options.what ?? 'condition'} (last value: ${JSON.stringify(last)})`);
}

/**
 * Fixed-window limits (per minute, per hour) reset on clock boundaries. A test that must stay inside one
 * window waits, when less than `neededSeconds` remain in the current one, for the next to begin.
 */
export async function waitForRoomInWindow(windowSeconds: number, neededSeconds: number): Promise<void> {
  const intoWindowMs = Date.now() % (windowSeconds * 1000);
  const leftMs = windowSeconds * 1000 - intoWindowMs;
  if (leftMs < neededSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}
