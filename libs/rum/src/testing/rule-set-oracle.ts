import { Condition } from '../lib/filters';
import { MatchableRule, toComparable } from '../lib/matcher';

type Value = string | undefined;

/** Reads a dotted path as the naive interpreter does: splitting the key for every event. */
function readPath(event: unknown, key: string): Value {
  let current: unknown = event;
  for (const segment of key.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return toComparable(current);
}

function conditionHolds(condition: Condition, value: Value): boolean {
  switch (condition.oper) {
    case 'IN':
      return value !== undefined && condition.vals.includes(value);
    case 'NOT IN':
      return value === undefined || !condition.vals.includes(value);
    case 'CONTAINS':
      return value !== undefined && condition.vals.some((needle) => value.includes(needle));
    case 'NOT CONTAINS':
      return value === undefined || !condition.vals.some((needle) => value.includes(needle));
  }
}

/**
 * The reference semantics the compiled matcher must agree with: walks the rule structure for every event. A test
 * oracle and the benchmark baseline, so it lives in the testing entry, not in the lib's index.
 */
export function interpretRuleSet(rules: readonly MatchableRule[], event: unknown): string | undefined {
  for (const rule of rules) {
    if (rule.status !== 'enabled') continue;
    if (
      rule.filters.some((group) =>
        group.every((condition) => conditionHolds(condition, readPath(event, condition.key))),
      )
    )
      return rule.id;
  }
  return undefined;
}
