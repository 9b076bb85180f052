import type { RateLimitDecision, TokenBucketLimit } from './rate-limiter';

/** Runs one Redis call for `count` takes of one token; answers {admitted, tokens before, now in ms}. */
export type TakeMany = (key: string, capacity: number, refillPerSecond: number, count: number) => Promise<[number, string, number]>;

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

interface Batch {
  key: string;
  limit: TokenBucketLimit;
  waiters: Waiter[];
}

/**
 * The decisions `count` single takes in a row would have produced, from the bucket's state before them:
 * the first `admitted` pass, each seeing one token fewer; the rest are refused and take nothing.
 */
export function decisionsInOrder(limit: TokenBucketLimit, admitted: number, tokensBefore: number, now: number, count: number): RateLimitDecision[] {
  const { capacity, refillPerSecond: rate } = limit;
  if (capacity <= 0 || rate <= 0) {
    return Array.from({ length: count }, () => ({ allowed: false, limit: capacity, remaining: 0, resetAt: Math.ceil(now / 1000), retryAfterSeconds: 1 }));
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

/** How long a bucket's takes wait behind its call in flight before they are sent anyway (a hung Redis). */
export const MAX_WAIT_BEHIND_MS = 20;

/**
 * Coalesces takes of one token into one Redis call per bucket. Takes arriving in the same event-loop turn go
 * together (flushed in the check phase, after the turn's I/O callbacks); and while a bucket's call is in flight,
 * its new takes wait and leave together as soon as it answers (at most one call per bucket in flight, unless
 * that call is older than MAX_WAIT_BEHIND_MS). Under load this is one call per Redis round trip instead of one
 * per turn. The answers are the ones the same takes made one by one, in arrival order, would have given, and
 * the shared bucket sees the same number of tokens taken.
 */
export class CoalescedTakes {
  private pending = new Map<string, Batch>();
  /** Start time (ms) of each bucket's call in flight. */
  private readonly inFlight = new Map<string, number>();
  private scheduled = false;

  constructor(private readonly takeMany: TakeMany) {}

  take(key: string, limit: TokenBucketLimit): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      const id = `${key}\n${limit.capacity}\n${limit.refillPerSecond}`;
      let batch = this.pending.get(id);
      if (!batch) {
        batch = { key, limit, waiters: [] };
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
    this.scheduled = false;
    const now = Date.now();
    for (const [id, batch] of this.pending) {
      const since = this.inFlight.get(id);
      // Behind a call in flight: sent when it answers (see run), or by a later flush once it is overdue.
      if (since !== undefined && now - since < MAX_WAIT_BEHIND_MS) continue;
      this.pending.delete(id);
      void this.run(id, batch, now);
    }
  }

  private async run(id: string, { key, limit, waiters }: Batch, startedAt: number): Promise<void> {
    this.inFlight.set(id, startedAt);
    try {
      const [admitted, tokensBefore, now] = await this.takeMany(key, limit.capacity, limit.refillPerSecond, waiters.length);
      const decisions = decisionsInOrder(limit, Number(admitted), Number(tokensBefore), Number(now), waiters.length);
      waiters.forEach((waiter, index) => waiter.resolve(decisions[index]));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      // Only the newest call of the bucket releases it (an overdue one may have been overtaken).
      if (this.inFlight.get(id) === startedAt) this.inFlight.delete(id);
      const next = this.pending.get(id);
      if (next && !this.inFlight.has(id)) {
        this.pending.delete(id);
        void this.run(id, next, Date.now());
      }
    }
  }
}
