import fc from 'fast-check';
import { Condition, findFiltersProblem, OPERATORS } from './filters';
import { interpretRuleSet } from '../testing';
import { compileRuleSet, MatchableRule } from './matcher';

const rule = (id: string, filters: Condition[][], status: 'enabled' | 'disabled' = 'enabled'): MatchableRule => ({
  id,
  status,
  filters,
});
const firstMatch = (rules: MatchableRule[], event: unknown) => {
  const matcher = compileRuleSet(rules);
  const index = matcher.match(event);
  return index === -1 ? undefined : matcher.ruleIds[index];
};

describe('compileRuleSet', () => {
  const rules = [
    rule('r1', [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError', 'RangeError'] }]]),
    rule('r2', [
      [
        { key: 'env', oper: 'IN', vals: ['staging'] },
        { key: 'error.message', oper: 'CONTAINS', vals: ['timeout'] },
      ],
    ]),
    rule('r3', [
      [
        { key: 'service', oper: 'NOT IN', vals: ['web', 'api'] },
        { key: 'view.url', oper: 'NOT CONTAINS', vals: ['/admin'] },
      ],
    ]),
    rule('r4', [[{ key: 'version', oper: 'IN', vals: ['1.0.0'] }]], 'disabled'),
  ];

  it.each([
    [{ error: { error_type: 'TypeError' }, service: 'web' }, 'r1'],
    [{ error: { error_type: 'SyntaxError', message: 'gateway timeout' }, env: 'staging', service: 'web' }, 'r2'],
    [{ error: { error_type: 'SyntaxError', message: 'gateway timeout' }, env: 'prod', service: 'web' }, undefined],
    [{ service: 'worker', view: { url: 'https://x/home' } }, 'r3'],
    [{ service: 'worker', view: { url: 'https://x/admin/users' } }, undefined],
    [{ service: 'web', version: '1.0.0' }, undefined],
    [{ service: 42, view: { url: 1 } }, 'r3'],
    ['not an object', 'r3'],
  ])('matches %j as %s', (event, expected) => {
    expect(firstMatch(rules, event)).toBe(expected);
    expect(interpretRuleSet(rules, event)).toBe(expected);
  });

  it('compares numbers and booleans by their text, and never matches objects with IN', () => {
    const set = [
      rule('n', [[{ key: 'status', oper: 'IN', vals: ['500'] }]]),
      rule('b', [[{ key: 'flag', oper: 'IN', vals: ['true'] }]]),
    ];
    expect(firstMatch(set, { status: 500 })).toBe('n');
    expect(firstMatch(set, { flag: true })).toBe('b');
    expect(firstMatch(set, { status: { nested: '500' } })).toBeUndefined();
  });

  it('uses the combined CONTAINS screen when a key has many needles', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      rule(`c${i}`, [[{ key: 'error.message', oper: 'CONTAINS', vals: [`needle-${i}.*`] }]]),
    );
    expect(firstMatch(many, { error: { message: 'xx needle-17.* yy' } })).toBe('c17');
    expect(firstMatch(many, { error: { message: 'needle-17 no' } })).toBeUndefined();
  });

  it('anchors on a scanned CONTAINS instead of an IN shared by many groups, with the same answers', () => {
    const set = [
      rule('scan', [[{ key: 'error.message', oper: 'CONTAINS', vals: ['boom'] }]]),
      ...Array.from({ length: 12 }, (_, i) =>
        rule(`s${i}`, [
          [
            { key: 'service', oper: 'IN', vals: ['web'] },
            { key: 'error.message', oper: 'CONTAINS', vals: [`code-${i}`] },
          ],
        ]),
      ),
      rule('typed', [
        [
          { key: 'env', oper: 'IN', vals: ['prod'] },
          { key: 'error.error_type', oper: 'IN', vals: ['E1'] },
        ],
      ]),
      rule('typed2', [[{ key: 'error.error_type', oper: 'IN', vals: ['E2'] }]]),
    ];
    for (const event of [
      { service: 'web', error: { message: 'x code-7 y' } },
      { service: 'api', error: { message: 'x code-7 y' } },
      { service: 'web', error: { message: 'code-1 and code-11' } },
      { service: 'web', error: { message: 'nothing' } },
      { env: 'prod', error: { error_type: 'E1', message: 'boom' } },
      { env: 'dev', error: { error_type: 'E1' } },
    ]) {
      expect(firstMatch(set, event)).toBe(interpretRuleSet(set, event));
    }
    expect(firstMatch(set, { service: 'web', error: { message: 'code-1 and code-11' } })).toBe('s1');
  });

  it('answers the first rule in order when several match', () => {
    const set = [
      rule('a', [[{ key: 'x', oper: 'NOT IN', vals: ['1'] }]]),
      rule('b', [[{ key: 'x', oper: 'IN', vals: ['2'] }]]),
    ];
    expect(firstMatch(set, { x: '2' })).toBe('a');
    expect(firstMatch([...set].reverse(), { x: '2' })).toBe('b');
  });

  it('agrees with the naive interpreter on arbitrary rules and events', () => {
    const keys = ['a', 'b', 'c.d', 'c.e', 'f.g.h'];
    const words = ['', 'x', 'y', 'xy', 'yx', 'z', '1', 'true'];
    const condition = fc.record({
      key: fc.constantFrom(...keys),
      oper: fc.constantFrom(...OPERATORS),
      vals: fc.array(fc.constantFrom(...words.filter(Boolean)), { minLength: 1, maxLength: 3 }),
    });
    const rules = fc.array(
      fc.record({
        id: fc.uuid(),
        status: fc.constantFrom('enabled' as const, 'disabled' as const),
        filters: fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 12 },
    );
    const leaf = fc.oneof(fc.constantFrom(...words), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.constant(null));
    const event = fc.record(
      {
        a: leaf,
        b: leaf,
        c: fc.oneof(fc.record({ d: leaf, e: leaf }), leaf),
        f: fc.oneof(fc.record({ g: fc.record({ h: leaf }) }), leaf),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(rules, fc.array(event, { minLength: 1, maxLength: 10 }), (ruleSet, events) => {
        for (const rule of ruleSet) expect(findFiltersProblem(rule.filters)).toBeUndefined();
        const matcher = compileRuleSet(ruleSet);
        for (const e of events) {
          const index = matcher.match(e);
          expect(index === -1 ? undefined : matcher.ruleIds[index]).toBe(interpretRuleSet(ruleSet, e));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('findFiltersProblem', () => {
  it.each([
    [[], 'at least one group'],
    [[[]], 'must not be empty'],
    ['x', 'array of groups'],
    [[[{ key: 'a', oper: 'LIKE', vals: ['x'] }]], 'oper'],
    [[[{ key: 'a', oper: 'IN', vals: [] }]], 'vals'],
    [[[{ key: 'a', oper: 'IN', vals: [1] }]], 'vals'],
    [[[{ key: 'a..b', oper: 'IN', vals: ['x'] }]], 'key'],
    [[[{ key: 'a.__proto__', oper: 'IN', vals: ['x'] }]], 'key'],
    [[[{ key: 'a', oper: 'IN', vals: ['x'], extra: 1 }]], 'extra'],
    [[[{ key: 'a', oper: 'CONTAINS', vals: [''] }]], 'empty string'],
    [[['x']], 'must be an object'],
  ])('refuses %j', (filters, problem) => {
    expect(findFiltersProblem(filters)).toContain(problem);
  });

  it('accepts a valid OR of AND-groups', () => {
    expect(
      findFiltersProblem([
        [{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }],
        [{ key: 'env', oper: 'NOT IN', vals: ['prod'] }],
      ]),
    ).toBeUndefined();
  });
});
