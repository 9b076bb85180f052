import { Condition, Filters } from './filters';

/** What the matcher needs of a rule; snapshots and rule rows both fit. */
export interface MatchableRule {
  id: string;
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

type Check = (values: Value[]) => boolean;

function conditionCheck(condition: Condition, slot: number): Check {
  const vals = [...new Set(condition.vals)];
  if (condition.oper === 'IN' || condition.oper === 'NOT IN') {
    const set = new Set(vals);
    return condition.oper === 'IN'
      ? (values) => values[slot] !== undefined && set.has(values[slot] as string)
      : (values) => values[slot] === undefined || !set.has(values[slot] as string);
  }
  const test = containsAny(vals);
  return condition.oper === 'CONTAINS'
    ? (values) => values[slot] !== undefined && test(values[slot] as string)
    : (values) => values[slot] === undefined || !test(values[slot] as string);
}

interface TrieNode {
  children: Map<string, TrieNode>;
  end: boolean;
}

/**
 * One expression for many needles, factored as a trie so the engine rejects most positions on their first
 * character; ends are optional suffixes, so at each position the longest needle is the one reported.
 */
function trieRegExp(needles: readonly string[]): RegExp {
  const root: TrieNode = { children: new Map(), end: false };
  for (const needle of needles) {
    let node = root;
    for (const char of needle) {
      let next = node.children.get(char);
      if (!next) node.children.set(char, (next = { children: new Map(), end: false }));
      node = next;
    }
    node.end = true;
  }
  const emit = (node: TrieNode): string => {
    const alternatives = [...node.children].map(([char, child]) => escapeRegExp(char) + emit(child));
    if (alternatives.length === 0) return '';
    const body = alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
    return node.end ? `(?:${body})?` : body;
  };
  return new RegExp(emit(root), 'g');
}

/** Above this many needles on one key, the substring closure is not precomputed and each needle is tried. */
const MAX_SCANNED_NEEDLES = 2000;

interface KeyPlan {
  slot: number;
  /** Groups anchored on an IN condition of this key, by value. */
  inIndex: Map<string, number[]>;
  /** Groups anchored on a CONTAINS condition of this key, by needle. */
  containsIndex: Map<string, number[]>;
  /** Finds, at each position, the longest needle present; `closure` adds the groups of needles inside it. */
  scanner?: RegExp;
  closure?: Map<string, number[]>;
}

function planContains(plan: KeyPlan): void {
  const needles = [...plan.containsIndex.keys()];
  if (needles.length <= 4 || needles.length > MAX_SCANNED_NEEDLES) return;
  plan.scanner = trieRegExp(needles);
  plan.closure = new Map(
    needles.map((needle) => [
      needle,
      [
        ...new Set(
          needles.filter((inner) => needle.includes(inner)).flatMap((inner) => plan.containsIndex.get(inner) ?? []),
        ),
      ],
    ]),
  );
}

/**
 * Compiles enabled rules into an index. Each AND-group is anchored on one positive condition (IN preferred,
 * as a hash lookup by key and value; else CONTAINS, found by one trie expression per key); its other
 * conditions are checked only when the anchor fires. Groups with no positive condition (only NOT IN /
 * NOT CONTAINS) are checked on every event. An event costs one read per distinct key plus the work for the
 * groups it can actually match.
 */
export function compileRuleSet(rules: readonly MatchableRule[]): CompiledMatcher {
  const enabled = rules.filter((rule) => rule.status === 'enabled');
  const ruleIds = enabled.map((rule) => rule.id);
  const slots = new Map<string, number>();
  const getters: Getter[] = [];
  const plans: KeyPlan[] = [];
  const slotOf = (key: string): number => {
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = getters.length;
      slots.set(key, slot);
      getters.push(compileGetter(key));
      plans.push({ slot, inIndex: new Map(), containsIndex: new Map() });
    }
    return slot;
  };
  const addTo = (index: Map<string, number[]>, value: string, group: number) => {
    const groups = index.get(value);
    if (groups) groups.push(group);
    else index.set(value, [group]);
  };

  // The IN on the key with the most distinct values across the rule set is the likeliest to be selective
  // (error.error_type rather than env), so it makes the best anchor.
  const inValues = new Map<string, Set<string>>();
  for (const condition of enabled.flatMap((rule) => rule.filters.flat())) {
    if (condition.oper !== 'IN') continue;
    const seen = inValues.get(condition.key) ?? new Set<string>();
    condition.vals.forEach((val) => seen.add(val));
    inValues.set(condition.key, seen);
  }
  const cardinality = (condition: Condition) => inValues.get(condition.key)?.size ?? 0;
  const bestIn = (conditions: Condition[]) =>
    conditions.reduce<Condition | undefined>(
      (best, c) => (c.oper === 'IN' && (best === undefined || cardinality(c) > cardinality(best)) ? c : best),
      undefined,
    );
  // Keys scanned for CONTAINS on every event anyway (groups with no IN); a needle found there is a cheaper
  // anchor than an IN shared by many groups (service IN [...] AND message CONTAINS [...]).
  const allGroups = enabled.flatMap((rule) => rule.filters);
  const scannedKeys = new Set(
    allGroups
      .filter((g) => !g.some((c) => c.oper === 'IN'))
      .flatMap((g) =>
        g
          .filter((c) => c.oper === 'CONTAINS')
          .slice(0, 1)
          .map((c) => c.key),
      ),
  );
  const inGroupsPerKey = new Map<string, number>();
  for (const group of allGroups) {
    const anchor = bestIn(group);
    if (anchor) inGroupsPerKey.set(anchor.key, (inGroupsPerKey.get(anchor.key) ?? 0) + 1);
  }
  const chooseAnchor = (conditions: Condition[]): Condition | undefined => {
    const viaIn = bestIn(conditions);
    const viaContains =
      conditions.find((c) => c.oper === 'CONTAINS' && scannedKeys.has(c.key)) ??
      conditions.find((c) => c.oper === 'CONTAINS');
    if (viaIn === undefined) return viaContains;
    const fanOut = (inGroupsPerKey.get(viaIn.key) ?? 0) / Math.max(1, cardinality(viaIn));
    return viaContains !== undefined && scannedKeys.has(viaContains.key) && fanOut >= 2 ? viaContains : viaIn;
  };

  const groupRule: number[] = [];
  const groupResiduals: (Check | undefined)[] = [];
  const alwaysGroups: number[] = [];
  enabled.forEach((rule, ruleIndex) => {
    for (const conditions of rule.filters) {
      const group = groupRule.length;
      const anchor = chooseAnchor(conditions);
      if (anchor) {
        const plan = plans[slotOf(anchor.key)];
        for (const val of new Set(anchor.vals))
          addTo(anchor.oper === 'IN' ? plan.inIndex : plan.containsIndex, val, group);
      } else {
        alwaysGroups.push(group);
      }
      const checks = conditions.filter((c) => c !== anchor).map((c) => conditionCheck(c, slotOf(c.key)));
      groupRule.push(ruleIndex);
      groupResiduals.push(
        checks.length === 0
          ? undefined
          : checks.length === 1
            ? checks[0]
            : (values) => checks.every((check) => check(values)),
      );
    }
  });
  plans.forEach(planContains);

  const indexedPlans = plans.filter((plan) => plan.inIndex.size > 0 || plan.containsIndex.size > 0);
  const stamps = new Int32Array(groupRule.length);
  const values: Value[] = new Array(getters.length);
  let stamp = 0;
  let best = -1;
  // State shared across calls is safe: `match` is synchronous and never re-entered.
  const fire = (groups: readonly number[]): void => {
    for (const group of groups) {
      if (stamps[group] === stamp) continue;
      stamps[group] = stamp;
      const rule = groupRule[group];
      if (best !== -1 && rule >= best) continue;
      const residual = groupResiduals[group];
      if (residual === undefined || residual(values)) best = rule;
    }
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
      if (groups !== undefined) fire(groups);
      if (plan.containsIndex.size === 0) continue;
      const { scanner, closure } = plan;
      if (scanner !== undefined && closure !== undefined) {
        scanner.lastIndex = 0;
        for (let found = scanner.exec(value); found !== null; found = scanner.exec(value)) {
          fire(closure.get(found[0]) ?? []);
          scanner.lastIndex = found.index + 1;
        }
      } else {
        for (const [needle, anchored] of plan.containsIndex) if (value.includes(needle)) fire(anchored);
      }
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
