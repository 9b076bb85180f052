/** A job's share of a migration: document keys in (keyFrom, keyTo]. */
export interface SlicePlan {
  slice: number;
  keyFrom: string;
  keyTo: string;
}

/** Explicit documents: sorted keys cut into runs of `sliceSize`. */
export function planListSlices(sortedKeys: readonly string[], sliceSize: number): SlicePlan[] {
  const slices: SlicePlan[] = [];
  for (let start = 0; start < sortedKeys.length; start += sliceSize) {
    const chunk = sortedKeys.slice(start, start + sliceSize);
    const [first] = chunk;
    const keyTo = chunk.at(-1);
    if (first === undefined || keyTo === undefined) break;
    const keyFrom = start === 0 ? (BigInt(first) - 1n).toString() : (sortedKeys[start - 1] ?? first);
    slices.push({ slice: slices.length, keyFrom, keyTo });
  }
  return slices.length > 0 ? slices : [{ slice: 0, keyFrom: '0', keyTo: '0' }];
}

/** A whole organization: its key range [minKey, maxKey] cut into equal widths, one slice per ~sliceSize documents. */
export function planRangeSlices(
  total: number,
  minKey: string | null,
  maxKey: string | null,
  sliceSize: number,
  maxSlices: number,
): SlicePlan[] {
  if (total === 0 || minKey === null || maxKey === null) return [{ slice: 0, keyFrom: '0', keyTo: '0' }];
  const low = BigInt(minKey) - 1n;
  const high = BigInt(maxKey);
  const wanted = BigInt(Math.max(1, Math.min(maxSlices, Math.ceil(total / sliceSize))));
  const span = high - low;
  const count = wanted > span ? span : wanted;
  const width = (span + count - 1n) / count;
  const slices: SlicePlan[] = [];
  for (let from = low; from < high; from += width) {
    const to = from + width > high ? high : from + width;
    slices.push({ slice: slices.length, keyFrom: from.toString(), keyTo: to.toString() });
  }
  return slices;
}
