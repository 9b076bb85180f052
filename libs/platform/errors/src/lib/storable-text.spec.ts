import fc from 'fast-check';
import { findTextProblem, findTextProblemInChunks } from './storable-text';

describe('findTextProblem', () => {
  it('reports nesting deeper than maxDepth with the path of the first one found, strings checked or not', () => {
    const deep = { events: [{ a: 1 }, { error: { stack: { frames: [{ x: 'ok' }] } } }] };
    const expected = {
      field: 'events.1.error.stack',
      message: 'events.1.error.stack is nested more than 4 levels deep',
    };
    expect(findTextProblem(deep, { maxDepth: 4 })).toEqual(expected);
    expect(findTextProblem(deep, { maxDepth: 4, checkStrings: false })).toEqual(expected);
    expect(findTextProblem(deep, { maxDepth: 7, checkStrings: false })).toBeUndefined();
  });

  it('skips unstorable strings only when told to', () => {
    const body = { events: [{ message: 'a\u0000b' }] };
    expect(findTextProblem(body)?.field).toBe('events.0.message');
    expect(findTextProblem(body, { checkStrings: false })).toBeUndefined();
  });

  it('the depth-only walk answers as the full walk does on storable values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 5 }), (value, maxDepth) => {
        const full = findTextProblem(value, { maxDepth });
        fc.pre(full === undefined || full.message.includes('nested more than'));
        expect(findTextProblem(value, { maxDepth, checkStrings: false })).toEqual(full);
      }),
      { numRuns: 500 },
    );
  });

  it('stops at the node budget with a problem, strings checked or not (a body of millions of empty objects)', () => {
    const body = { data: new Array(2_500_000).fill({}) };
    for (const checkStrings of [true, false]) {
      const started = performance.now();
      expect(findTextProblem(body, { checkStrings })).toEqual({
        field: '',
        message: 'the value holds more than 2000000 values',
      });
      // Stopping before the walk, not after it.
      expect(performance.now() - started).toBeLessThan(50);
    }
    expect(findTextProblem({ a: [1, 2], b: 'x' }, { maxNodes: 4 })).toBeUndefined();
    expect(findTextProblem({ a: [1, 2], b: 'x' }, { maxNodes: 3 })?.message).toBe('the value holds more than 3 values');
  });

  it('in chunks, answers as in one go on any value, with or without strings, and yields between slices', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 6 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (value, maxDepth, sliceNodes, checkStrings) => {
          const options = { maxDepth, checkStrings, maxNodes: 40 };
          expect(await findTextProblemInChunks(value, { ...options, sliceNodes })).toEqual(
            findTextProblem(value, options),
          );
        },
      ),
      { numRuns: 300 },
    );
    const body = { documents: Array.from({ length: 100 }, (_, i) => ({ id: `d${i}`, bad: i === 3 ? '\u0000' : '' })) };
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    expect(await findTextProblemInChunks(body, { sliceNodes: 10 })).toEqual(findTextProblem(body));
    expect(findTextProblem(body)?.field).toBe('documents.3.bad');
    expect(otherWorkRan).toBe(true);
    // A walk shorter than a slice answers without giving way.
    otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    await findTextProblemInChunks(body, { sliceNodes: 10_000 });
    expect(otherWorkRan).toBe(false);
  });
});
