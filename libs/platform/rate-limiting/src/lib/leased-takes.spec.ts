import { CoalescedTakes, LEASE_MS, leaseSize, TakeMany } from './rate-limiter';

/** A bucket in memory that answers like TOKEN_BUCKET_TAKE (no refill), counting its calls. */
function fakeBucket(tokens: number) {
  const state = { tokens, calls: 0, asked: [] as number[] };
  const takeMany: TakeMany = async (_key, _capacity, _rate, count) => {
    state.calls += 1;
    state.asked.push(count);
    const before = state.tokens;
    const admitted = Math.max(0, Math.min(count, Math.floor(before)));
    state.tokens -= admitted;
    return [admitted, String(before), 1_700_000_000_000];
  };
  return { state, takeMany };
}

const LARGE = { capacity: 1000, refillPerSecond: 1000 };
const SMALL = { capacity: 100, refillPerSecond: 100 };

describe('leased takes', () => {
  it('leases only for limits where 1 % is at least 2 tokens', () => {
    expect(leaseSize(SMALL)).toBe(0);
    expect(leaseSize({ capacity: 199, refillPerSecond: 199 })).toBe(0);
    expect(leaseSize({ capacity: 200, refillPerSecond: 200 })).toBe(2);
    expect(leaseSize(LARGE)).toBe(10);
    expect(leaseSize({ capacity: 1000, refillPerSecond: 0 })).toBe(0);
  });

  it('serves the next takes of a large bucket from one call, with remaining counting down', async () => {
    const { state, takeMany } = fakeBucket(1000);
    const takes = new CoalescedTakes(takeMany);
    const decisions = [];
    for (let i = 0; i < 11; i += 1) decisions.push(await takes.take('k', LARGE, 100, true));
    expect(state.calls).toBe(1);
    expect(state.asked).toEqual([11]);
    expect(decisions.map((d) => d.remaining)).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990, 989]);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    await takes.take('k', LARGE, 100, true);
    expect(state.calls).toBe(2);
  });

  it('never leases more than the bucket holds, and refuses through Redis once it is empty', async () => {
    const { state, takeMany } = fakeBucket(3);
    const takes = new CoalescedTakes(takeMany);
    const decisions = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await takes.take('k', LARGE, 100, true));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(state.tokens).toBe(0);
    expect(state.calls).toBe(3);
  });

  it('drops leased tokens after LEASE_MS and asks Redis again', async () => {
    let now = 0;
    const { state, takeMany } = fakeBucket(1000);
    const takes = new CoalescedTakes(takeMany, () => now);
    await takes.take('k', LARGE, 100, true);
    now += LEASE_MS;
    await takes.take('k', LARGE, 100, true);
    expect(state.calls).toBe(2);
    expect(state.tokens).toBe(1000 - 22);
  });

  it('keeps small limits and takes without a lease exact: one token per take', async () => {
    const { state, takeMany } = fakeBucket(1000);
    const takes = new CoalescedTakes(takeMany);
    await takes.take('a', SMALL, 100, true);
    await takes.take('a', SMALL, 100, true);
    await takes.take('b', LARGE, 100, false);
    expect(state.asked).toEqual([1, 1, 1]);
  });
});
