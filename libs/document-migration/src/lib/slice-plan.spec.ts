import fc from 'fast-check';
import { planListSlices, planRangeSlices, SlicePlan } from './slice-plan';

const covers = (slices: SlicePlan[], key: bigint) =>
  slices.filter((s) => BigInt(s.keyFrom) < key && key <= BigInt(s.keyTo)).length;

describe('slice plans', () => {
  it('cuts a key range into contiguous, disjoint slices covering every key (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 5000n }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 64 }),
        (min, extra, total, sliceSize, maxSlices) => {
          const max = min + extra;
          const slices = planRangeSlices(total, min.toString(), max.toString(), sliceSize, maxSlices);
          expect(slices.length).toBeGreaterThanOrEqual(1);
          expect(slices.length).toBeLessThanOrEqual(maxSlices);
          expect(BigInt(slices[0]!.keyFrom)).toBe(min - 1n);
          expect(BigInt(slices[slices.length - 1]!.keyTo)).toBe(max);
          slices.forEach((slice, i) => {
            expect(slice.slice).toBe(i);
            expect(BigInt(slice.keyFrom)).toBeLessThan(BigInt(slice.keyTo));
            if (i > 0) expect(slice.keyFrom).toBe(slices[i - 1]!.keyTo);
          });
          for (const key of [min, max, min + extra / 2n]) expect(covers(slices, key)).toBe(1);
        },
      ),
    );
  });

  it('cuts listed keys into runs of at most sliceSize, each key in exactly one slice (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (keys, sliceSize) => {
          const sorted = [...keys].sort((a, b) => a - b).map(String);
          const slices = planListSlices(sorted, sliceSize);
          expect(slices).toHaveLength(Math.ceil(sorted.length / sliceSize));
          for (const key of sorted) expect(covers(slices, BigInt(key))).toBe(1);
        },
      ),
    );
  });

  it('plans one empty slice for nothing to move', () => {
    expect(planRangeSlices(0, null, null, 10, 4)).toEqual([{ slice: 0, keyFrom: '0', keyTo: '0' }]);
    expect(planListSlices([], 10)).toEqual([{ slice: 0, keyFrom: '0', keyTo: '0' }]);
  });
});
