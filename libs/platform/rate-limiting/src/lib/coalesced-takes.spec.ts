import fc from 'fast-check';
import { CoalescedTakes, decisionsInOrder, RateLimitDecision } from './rate-limiter';

/** One take of cost 1, exactly as the single-take Lua script decides it (the reference the batch must match). */
function singleTake(state: { tokens: number }, capacity: number, rate: number, now: number): RateLimitDecision {
  const allowed = state.tokens >= 1;
  if (allowed) state.tokens -= 1;
  const untilFull = Math.ceil(((capacity - state.tokens) / rate) * 1000);
  const untilNext = allowed ? 0 : Math.ceil(((1 - state.tokens) / rate) * 1000);
  return {
    allowed,
    limit: capacity,
    remaining: Math.floor(state.tokens),
    resetAt: Math.ceil((now + untilFull) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(untilNext / 1000)),
  };
}

describe('decisionsInOrder', () => {
  it('answers what the same takes one by one would have answered', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10000 }),
        fc.double({ min: 0.001, max: 10000, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        (capacity, rate, fill, count, now) => {
          const tokensBefore = capacity * fill;
          const admitted = Math.min(count, Math.floor(tokensBefore));
          const state = { tokens: tokensBefore };
          const oneByOne = Array.from({ length: count }, () => singleTake(state, capacity, rate, now));
          expect(decisionsInOrder({ capacity, refillPerSecond: rate }, admitted, tokensBefore, now, count)).toEqual(
            oneByOne,
          );
        },
      ),
    );
  });

  it('refuses everything when the bucket has no capacity', () => {
    const decisions = decisionsInOrder({ capacity: 0, refillPerSecond: 0 }, 0, 0, 1_700_000_000_500, 3);
    expect(decisions).toEqual(
      Array(3).fill({ allowed: false, limit: 0, remaining: 0, resetAt: 1_700_000_001, retryAfterSeconds: 1 }),
    );
  });
});

describe('CoalescedTakes', () => {
  const limit = { capacity: 3, refillPerSecond: 1 };

  it('makes one call per bucket for the takes of one event-loop turn, and answers each in arrival order', async () => {
    const calls: Array<[string, number]> = [];
    const takes = new CoalescedTakes(async (key, capacity, _rate, count) => {
      calls.push([key, count]);
      return [Math.min(count, capacity), String(capacity), 1_700_000_000_000];
    });
    const decisions = await Promise.all([
      takes.take('a', limit, 100),
      takes.take('b', limit, 100),
      takes.take('a', limit, 100),
      takes.take('a', limit, 100),
      takes.take('a', limit, 100),
    ]);
    expect(calls).toEqual([
      ['a', 4],
      ['b', 1],
    ]);
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });

  it('keeps takes of later turns, and buckets of different limits, apart', async () => {
    const calls: number[] = [];
    const takes = new CoalescedTakes(async (_key, capacity, _rate, count) => {
      calls.push(count);
      return [Math.min(count, capacity), String(capacity), 1_700_000_000_000];
    });
    await takes.take('a', limit, 100);
    await Promise.all([takes.take('a', limit, 100), takes.take('a', { capacity: 5, refillPerSecond: 1 }, 100)]);
    expect(calls).toEqual([1, 1, 1]);
  });

  it('rejects every take of a batch whose call failed', async () => {
    const takes = new CoalescedTakes(async () => {
      throw new Error('Redis is down');
    });
    const results = await Promise.allSettled([takes.take('a', limit, 100), takes.take('a', limit, 100)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
