import type { RateLimitDecision, WindowLimit } from './limits';

interface Counter {
  windowEnd: number;
  count: number;
}

/**
 * Fixed windows counted in this process only: the fallback while Redis is unavailable, so limits that guard
 * against guessing (sign-in, verification codes) still hold per instance (docs/decisions.md#rate-limiting).
 * Bounded: past `maxKeys` the oldest counters are dropped.
 */
export class LocalFixedWindows {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `commit` false only checks (a peek). */
  take(key: string, windows: WindowLimit[], cost = 1, commit = true): RateLimitDecision {
    const now = this.now();
    const current = windows.map((window) => this.counter(`${key}:${window.windowSeconds}`, window, now));
    const refusing = windows.findIndex((window, index) => current[index].count + cost > window.limit);
    if (refusing < 0 && commit) for (const counter of current) counter.count += cost;
    const deciding = refusing < 0 ? this.tightest(windows, current) : refusing;
    const { limit } = windows[deciding];
    const counter = current[deciding];
    return {
      allowed: refusing < 0,
      limit,
      remaining: Math.max(0, limit - counter.count),
      resetAt: Math.ceil(counter.windowEnd / 1000),
      retryAfterSeconds: refusing < 0 ? 0 : Math.max(1, Math.ceil((counter.windowEnd - now) / 1000)),
    };
  }

  get size(): number {
    return this.counters.size;
  }

  private counter(key: string, window: WindowLimit, now: number): Counter {
    const existing = this.counters.get(key);
    if (existing && existing.windowEnd > now) return existing;
    if (existing) this.counters.delete(key);
    const size = window.windowSeconds * 1000;
    const fresh = { windowEnd: Math.floor(now / size) * size + size, count: 0 };
    this.counters.set(key, fresh);
    while (this.counters.size > this.maxKeys) this.counters.delete(this.counters.keys().next().value as string);
    return fresh;
  }

  /** The window with the fewest requests left decides the headers of an allowed request. */
  private tightest(windows: WindowLimit[], counters: Counter[]): number {
    let best = 0;
    for (let index = 1; index < windows.length; index += 1) {
      if (windows[index].limit - counters[index].count < windows[best].limit - counters[best].count) best = index;
    }
    return best;
  }
}
