import type { RateLimitDecision, TokenBucketLimit } from './rate-limiter';

/** Runs one Redis call for `count` takes of one token; answers {admitted, tokens before, now in ms}. */
export type TakeMany = (
  key: string,
  capacity: number,
  refillPerSecond: number,
  count: number,
  timeoutMs: number,
) => Promise<[number, string, number]>;

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

interface Batch {
  key: string;
  limit: TokenBucketLimit;
  timeoutMs: number;
  waiters: Waiter[];
}

/**
 * The decisions `count` single takes in a row would have produced, from the bucket's state before them:
 * the first `admitted` pass, each seeing one token fewer; the rest are refused and take nothing.
 */
export function decisionsInOrder(
  limit: TokenBucketLimit,
  admitted: number,
  tokensBefore: number,
  now: number,
  count: number,
): RateLimitDecision[] {
  const { capacity, refillPerSecond: rate } = limit;
  if (capacity <= 0 || rate <= 0) {
    return Array.from({ length: count }, () => ({
      allowed: false,
      limit: capacity,
      remaining: 0,
      resetAt: Math.ceil(now / 1000),
      retryAfterSeconds: 1,
    }));
  }
  return Array.from({ length: count }, (_, index) => {
    const allowed = index < admitted;
    const tokensAfter = tokensBefore - (allowed ? index + 1 : admitted);
    const untilFull = Math.ceil(((capacity - tokensAfter) / rate) * 1000);
    const untilNext = allowed ? 0 : Math.ceil(((1 - tokensAfter) / rate) * 1000);
    return {
      allowed,
      limit: capacity,
      remaining: Math.floor(tokensAfter),
      resetAt: Math.ceil((now + untilFull) / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(untilNext / 1000)),
    };
  });
}

/**
 * Coalesces the takes of one token that arrive in the same event-loop turn into one Redis call per bucket
 * (flushed in the check phase, after the I/O callbacks of the turn). Under load many requests of one client
 * arrive together; the answers are the ones the same takes made one by one would have given, and the shared
 * bucket sees the same number of tokens taken.
 */
export class CoalescedTakes {
  private pending = new Map<string, Batch>();
  private scheduled = false;

  constructor(private readonly takeMany: TakeMany) {}

  take(key: string, limit: TokenBucketLimit, timeoutMs: number): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      const id = `${key}\n${limit.capacity}\n${limit.refillPerSecond}\n${timeoutMs}`;
      let batch = this.pending.get(id);
      if (!batch) {
        batch = { key, limit, timeoutMs, waiters: [] };
        this.pending.set(id, batch);
      }
      batch.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batches = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    for (const batch of batches) void this.run(batch);
  }

  private async run({ key, limit, timeoutMs, waiters }: Batch): Promise<void> {
    try {
      const [admitted, tokensBefore, now] = await this.takeMany(
        key,
        limit.capacity,
        limit.refillPerSecond,
        waiters.length,
        timeoutMs,
      );
      const decisions = decisionsInOrder(limit, Number(admitted), Number(tokensBefore), Number(now), waiters.length);
      waiters.forEach((waiter, index) => waiter.resolve(decisions[index]));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}
