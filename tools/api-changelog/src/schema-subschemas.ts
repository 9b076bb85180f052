import type { CheckId } from './checks';
import { canonicalOf } from './schema-keywords';
import { Compare, Context, has, isObject, Schema, SchemaFinding, show, under } from './schema-model';

/**
 * JSON Schema 2020-12 keywords whose value is a sub-schema that only adds demands when present (`then`, `else`,
 * `contains`, `contentSchema`, `propertyNames`, a `dependentSchemas` or `patternProperties` entry). Gained on a
 * request, or lost on a response, it breaks the client; present in both versions, it is compared like any value
 * (the same direction: narrowing it narrows the whole), its findings placed under `(keyword)` in the path.
 */
function compareDemand(
  a: unknown,
  b: unknown,
  ctx: Context,
  findings: SchemaFinding[],
  compare: Compare,
  checks: { added: CheckId; removed: CheckId },
  marker: string,
  detail: string,
): void {
  if (a === undefined && b === undefined) return;
  if (a !== undefined && b !== undefined) return void findings.push(...under(marker, compare(a, b, ctx)));
  if (ctx.direction === 'request' && b !== undefined) findings.push({ check: checks.added, path: '', detail });
  if (ctx.direction === 'response' && a !== undefined) findings.push({ check: checks.removed, path: '', detail });
}

const CONDITIONAL = { added: 'request-conditional-added', removed: 'response-conditional-removed' } as const;

/**
 * `if`/`then`/`else`: `then` and `else` only add demands; `if` decides which applies, so a changed `if` may narrow
 * or widen depending on the data (potentially breaking). Added to a request or removed from a response: breaking.
 */
export function compareConditionals(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[], compare: Compare) {
  const at = (s: Schema, key: string) => (has(s, key) ? s[key] : undefined);
  for (const keyword of ['if', 'then', 'else']) {
    const [a, b] = [at(o, keyword), at(n, keyword)];
    if (keyword === 'if' && a !== undefined && b !== undefined) {
      if (canonicalOf(o, 'if') !== canonicalOf(n, 'if'))
        findings.push({ check: `${ctx.direction}-conditional-changed`, path: '', detail: 'if' });
      continue;
    }
    compareDemand(a, b, ctx, findings, compare, CONDITIONAL, `(${keyword})`, keyword);
  }
}

/**
 * Keywords holding one sub-schema per key: a `dependentSchemas` entry applies when its property is present, a
 * `patternProperties` entry to the properties whose name matches it; either only adds demands.
 */
const ENTRY_KEYWORDS: Array<[string, { added: CheckId; removed: CheckId }]> = [
  ['dependentSchemas', { added: 'request-dependent-schema-added', removed: 'response-dependent-schema-removed' }],
  ['patternProperties', { added: 'request-pattern-property-added', removed: 'response-pattern-property-removed' }],
];

export function compareEntryDemands(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[], compare: Compare) {
  for (const [keyword, checks] of ENTRY_KEYWORDS)
    eachEntry(o, n, keyword, (key, a, b) =>
      compareDemand(a, b, ctx, findings, compare, checks, `(${keyword}.${key})`, key),
    );
}

function eachEntry(o: Schema, n: Schema, keyword: string, visit: (key: string, a: unknown, b: unknown) => void) {
  const before: Schema = isObject(o[keyword]) ? o[keyword] : {};
  const after: Schema = isObject(n[keyword]) ? n[keyword] : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) visit(key, before[key], after[key]);
}

/** `contains`, `propertyNames` and `contentSchema`: one sub-schema each, only adding demands. */
export function compareSingleDemands(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[], compare: Compare) {
  const keywords: Array<[string, CheckId, CheckId]> = [
    ['contains', 'request-contains-added', 'response-contains-removed'],
    ['propertyNames', 'request-property-names-added', 'response-property-names-removed'],
    ['contentSchema', 'request-content-schema-added', 'response-content-schema-removed'],
  ];
  for (const [keyword, added, removed] of keywords) {
    const at = (s: Schema) => (has(s, keyword) ? s[keyword] : undefined);
    compareDemand(at(o), at(n), ctx, findings, compare, { added, removed }, `(${keyword})`, keyword);
  }
}

/** `contentMediaType`/`contentEncoding` say how a string's bytes are to be read: any change breaks both sides. */
export function compareContentEncoding(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  for (const keyword of ['contentMediaType', 'contentEncoding']) {
    const [a, b] = [o[keyword], n[keyword]];
    if (a === b || (a === undefined && b === undefined)) continue;
    findings.push({
      check: `${ctx.direction}-content-encoding-changed`,
      path: '',
      detail: keyword,
      from: show(a),
      to: show(b),
    });
  }
}

/**
 * Tuples: position i is governed by `prefixItems[i]` if there is one, else by `items` (absent: anything), so each
 * position either version describes is compared as any value, `[i]` in the path. A position `items: false` forbids
 * in one version is skipped (the array's length changes, not a value's shape).
 * Where prefixItems first appears on a request value, or goes from a response value, the positions' changes are
 * one potentially-breaking finding: the tuple is described more closely (request) or less closely (response) and
 * only callers that relied on a position notice (README, "Where we follow oasdiff").
 */
const positionCount = (items: unknown[]) => `${items.length} position${items.length === 1 ? '' : 's'}`;

export function comparePrefixItems(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[], compare: Compare) {
  const before: unknown[] | undefined = Array.isArray(o['prefixItems']) ? o['prefixItems'] : undefined;
  const after: unknown[] | undefined = Array.isArray(n['prefixItems']) ? n['prefixItems'] : undefined;
  if (!before && !after) return;
  const rest = (s: Schema): unknown => (isObject(s['items']) || s['items'] === false ? s['items'] : {});
  const positions: SchemaFinding[] = [];
  for (let i = 0; i < Math.max(before?.length ?? 0, after?.length ?? 0); i++) {
    const a = before?.[i] ?? rest(o);
    const b = after?.[i] ?? rest(n);
    if (a === false || b === false) continue;
    positions.push(...under(`[${i}]`, compare(a, b, ctx)));
  }
  const described = ctx.direction === 'request' ? !before && after : before && !after;
  if (!described || positions.length === 0) return void findings.push(...positions);
  findings.push({
    check: ctx.direction === 'request' ? 'request-prefix-items-added' : 'response-prefix-items-removed',
    path: '',
    detail: 'prefixItems',
    from: before ? positionCount(before) : 'none',
    to: after ? positionCount(after) : 'none',
  });
}
