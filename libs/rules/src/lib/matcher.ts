import { Condition, Filters } from './filters';

/** What the matcher needs of a rule; snapshots and rule rows both fit. */
export interface MatchableRule {
  rule_id: string;
  status: 'enabled' | 'disabled';
  filters: Filters;
}

/** A rule set compiled once per version; `match` answers the index in `ruleIds` of the first matching rule, or -1. */
export interface CompiledMatcher {
  readonly ruleIds: readonly string[];
  match(event: unknown): number;
}

type Value = string | undefined;
type Getter = (event: unknown) => Value;

/**
 * Field values the operators compare: strings as they are, finite numbers and booleans as their text (rule
 * `vals` are strings); objects, arrays, null and missing fields are "absent", which no IN/CONTAINS matches
 * and every NOT IN/NOT CONTAINS does.
 */
export function toComparable(raw: unknown): Value {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : undefined;
  if (typeof raw === 'boolean') return raw ? 'true' : 'false';
  return undefined;
}

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

/** The reference semantics: walks the rule structure for every event. Used by tests and as the benchmark baseline. */
export function interpretRuleSet(rules: readonly MatchableRule[], event: unknown): string | undefined {
  for (const rule of rules) {
    if (rule.status !== 'enabled') continue;
    if (rule.filters.some((group) => group.every((condition) => conditionHolds(condition, readPath(event, condition.key))))) return rule.rule_id;
  }
  return undefined;
}

/** A getter specialised on the path's depth at compile time. */
function compileGetter(key: string): Getter {
  const path = key.split('.');
  const step = (value: unknown, name: string): unknown =>
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  if (path.length === 1) {
    const [a] = path;
    return (event) => toComparable(step(event, a));
  }
  if (path.length === 2) {
    const [a, b] = path;
    return (event) => toComparable(step(step(event, a), b));
  }
  return (event) => toComparable(path.reduce(step, event));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function containsAny(needles: readonly string[]): (value: string) => boolean {
  if (needles.length === 1) {
    const [needle] = needles;
    return (value) => value.includes(needle);
  }
  return (value) => {
    for (const needle of needles) if (value.includes(needle)) return true;
    return false;
  };
}

interface ContainsCondition {
  group: number;
  test: (value: string) => boolean;
}

interface KeyPlan {
  slot: number;
  /** IN conditions by value: each entry a group that gains one satisfied condition. */
  inIndex: Map<string, number[]>;
  contains: ContainsCondition[];
  needles: Set<string>;
  /** Quick rejection for the common case where no needle of this key occurs at all. */
  containsPrefilter?: RegExp;
}

type Residual = (values: Value[]) => boolean;

/**
 * Compiles enabled rules into an index: IN conditions become hash lookups by (key, value), CONTAINS conditions
 * are screened by one combined expression per key, and a group is evaluated further only when all its positive
 * conditions fired. Each event costs one read per distinct key plus the work for groups it can actually match.
 */
export function compileRuleSet(rules: readonly MatchableRule[]): CompiledMatcher {
  const enabled = rules.filter((rule) => rule.status === 'enabled');
  const ruleIds = enabled.map((rule) => rule.rule_id);
  const slots = new Map<string, number>();
  const getters: Getter[] = [];
  const plans: KeyPlan[] = [];
  const slotOf = (key: string): number => {
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = getters.length;
      slots.set(key, slot);
      getters.push(compileGetter(key));
      plans.push({ slot, inIndex: new Map(), contains: [], needles: new Set() });
    }
    return slot;
  };

  const groupRule: number[] = [];
  const groupPositives: number[] = [];
  const groupResiduals: (Residual | undefined)[] = [];
  enabled.forEach((rule, ruleIndex) => {
    for (const conditions of rule.filters) {
      const group = groupRule.length;
      let positives = 0;
      const negatives: Residual[] = [];
      for (const condition of conditions) {
        const slot = slotOf(condition.key);
        const plan = plans[slot];
        if (condition.oper === 'IN') {
          positives += 1;
          for (const val of new Set(condition.vals)) {
            const groups = plan.inIndex.get(val);
            if (groups) groups.push(group);
            else plan.inIndex.set(val, [group]);
          }
        } else if (condition.oper === 'CONTAINS') {
          positives += 1;
          plan.contains.push({ group, test: containsAny([...new Set(condition.vals)]) });
          for (const needle of condition.vals) plan.needles.add(needle);
        } else if (condition.oper === 'NOT IN') {
          const excluded = new Set(condition.vals);
          negatives.push((values) => {
            const value = values[slot];
            return value === undefined || !excluded.has(value);
          });
        } else {
          const test = containsAny([...new Set(condition.vals)]);
          negatives.push((values) => {
            const value = values[slot];
            return value === undefined || !test(value);
          });
        }
      }
      groupRule.push(ruleIndex);
      groupPositives.push(positives);
      groupResiduals.push(negatives.length === 0 ? undefined : negatives.length === 1 ? negatives[0] : (values) => negatives.every((check) => check(values)));
    }
  });
  for (const plan of plans) {
    if (plan.needles.size > 4) plan.containsPrefilter = new RegExp([...plan.needles].map(escapeRegExp).join('|'));
  }

  // Groups with no positive condition cannot be reached through the index; they are checked on every event.
  const alwaysGroups = groupPositives.flatMap((count, group) => (count === 0 ? [group] : []));
  const indexedPlans = plans.filter((plan) => plan.inIndex.size > 0 || plan.contains.length > 0);
  const groupCount = groupRule.length;
  const stamps = new Int32Array(groupCount);
  const hits = new Int32Array(groupCount);
  const values: Value[] = new Array(getters.length);
  let stamp = 0;
  let best = -1;
  // State shared across calls is safe: `match` is synchronous and never re-entered.
  const fire = (group: number): void => {
    if (stamps[group] !== stamp) {
      stamps[group] = stamp;
      hits[group] = 0;
    }
    if (++hits[group] !== groupPositives[group]) return;
    const rule = groupRule[group];
    if (best !== -1 && rule >= best) return;
    const residual = groupResiduals[group];
    if (residual === undefined || residual(values)) best = rule;
  };

  const match = (event: unknown): number => {
    for (let slot = 0; slot < getters.length; slot++) values[slot] = getters[slot](event);
    if (++stamp === 0x7fffffff) {
      stamps.fill(0);
      stamp = 1;
    }
    best = -1;
    for (const plan of indexedPlans) {
      const value = values[plan.slot];
      if (value === undefined) continue;
      const groups = plan.inIndex.get(value);
      if (groups !== undefined) for (const group of groups) fire(group);
      if (plan.contains.length === 0 || (plan.containsPrefilter !== undefined && !plan.containsPrefilter.test(value))) continue;
      for (const condition of plan.contains) if (condition.test(value)) fire(condition.group);
    }
    for (const group of alwaysGroups) {
      const rule = groupRule[group];
      if (best !== -1 && rule >= best) break;
      const residual = groupResiduals[group];
      if (residual === undefined || residual(values)) best = rule;
    }
    return best;
  };
  return { ruleIds, match };
}
