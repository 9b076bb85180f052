/** Lets timers and I/O that queued up run before continuing (a macrotask, unlike `await` on a resolved promise). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * True when `check` holds for every item, stopping at the first that fails. Checks `chunkSize` items at a time
 * and yields to the event loop between chunks, so a 10,000-item body never holds the loop for long
 * (docs/decisions.md#big-bodies-are-checked-in-chunks). `fromEnd` visits the last item first.
 */
export async function everyInChunks<T>(
  items: readonly T[],
  check: (item: T, index: number) => boolean,
  options: { chunkSize?: number; fromEnd?: boolean } = {},
): Promise<boolean> {
  const chunkSize = options.chunkSize ?? 500;
  const count = items.length;
  for (let done = 0; done < count; done += chunkSize) {
    if (done > 0) await yieldToEventLoop();
    const end = Math.min(count, done + chunkSize);
    for (let step = done; step < end; step++) {
      const index = options.fromEnd ? count - 1 - step : step;
      if (!check(items[index] as T, index)) return false;
    }
  }
  return true;
}
