import type { CheckId } from './checks';
import type { Direction, SchemaFinding } from './schema-diff';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;
type Compare = (oldValue: unknown, newValue: unknown, direction: Direction) => SchemaFinding[];

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (schema: Schema, key: string) =>
  Object.prototype.hasOwnProperty.call(schema, key) && schema[key] !== undefined;

/**
 * Key-sorted JSON of a dereferenced value; a cycle (shared component pointing back at itself) prints as a
 * marker, so two schemas that differ only in object identity compare equal.
 */
export function canonical(value: unknown, seen: Set<object> = new Set()): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  if (seen.has(value)) return '"<cycle>"';
  seen.add(value);
  const text = Array.isArray(value)
    ? `[${value.map((item) => canonical(item, seen)).join(',')}]`
    : `{${Object.keys(value)
        .sort()
        .filter((key) => (value as Schema)[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}:${canonical((value as Schema)[key], seen)}`)
        .join(',')}}`;
  seen.delete(value);
  return text;
}

/** Patterns that accept every string: generalising to one of them removes the constraint. */
const UNIVERSAL_PATTERNS = new Set(['.*', '^.*$', '^.*', '.*$', '[\\s\\S]*', '^[\\s\\S]*$', '(.*)', '^(.*)$']);
export const effectivePattern = (schema: Schema): string | undefined =>
  typeof schema['pattern'] === 'string' && !UNIVERSAL_PATTERNS.has(schema['pattern']) ? schema['pattern'] : undefined;

/** Keywords that give a schema without `type` a shape; a schema with none of them accepts anything. */
const SHAPING = [
  'type',
  'properties',
  'additionalProperties',
  'patternProperties',
  'required',
  'items',
  'prefixItems',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'format',
  '$ref',
];
export const isUntyped = (schema: Schema): boolean => !SHAPING.some((key) => has(schema, key));

/** A request default changed, added or removed (responses carry no meaningful default). */
export function compareDefaults(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
  if (direction !== 'request') return;
  const before = canonicalOf(o, 'default');
  const after = canonicalOf(n, 'default');
  if (before === after) return;
  const check =
    before === undefined
      ? 'request-default-value-added'
      : after === undefined
        ? 'request-default-value-removed'
        : 'request-default-value-changed';
  findings.push({ check, path: '', from: before ?? 'none', to: after ?? 'none' });
}

const canonicalOf = (schema: Schema, key: string) => (has(schema, key) ? canonical(schema[key]) : undefined);

/**
 * A sub-schema whose effect depends on the data (canonical texts of both versions): gained or changed, it may
 * narrow a request; lost or changed, it may widen a response. `from` says which.
 */
function compareSubschema(
  before: string | undefined,
  after: string | undefined,
  direction: Direction,
  findings: SchemaFinding[],
  checks: [CheckId, CheckId],
  detail?: string,
): void {
  if (before === after) return;
  if (direction === 'request' && after !== undefined)
    findings.push({ check: checks[0], path: '', detail, from: before ? 'changed' : 'added' });
  if (direction === 'response' && before !== undefined)
    findings.push({ check: checks[1], path: '', detail, from: after ? 'changed' : 'removed' });
}

/** `if`/`then`/`else`: their effect depends on the data, so any change that could narrow is potentially breaking. */
export function compareConditionals(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
  for (const keyword of ['if', 'then', 'else']) {
    compareSubschema(
      canonicalOf(o, keyword),
      canonicalOf(n, keyword),
      direction,
      findings,
      ['request-conditional-changed', 'response-conditional-changed'],
      keyword,
    );
  }
}

export function compareDependencies(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
  const list = (s: Schema, key: string): string[] =>
    isObject(s['dependentRequired']) && Array.isArray(s['dependentRequired'][key])
      ? s['dependentRequired'][key].map(String)
      : [];
  const keys = (s: Schema) => (isObject(s['dependentRequired']) ? Object.keys(s['dependentRequired']) : []);
  // Request: a name a dependency newly demands; response: a name it no longer guarantees.
  const [from, to] = direction === 'request' ? [o, n] : [n, o];
  for (const key of keys(to)) {
    const known = new Set(list(from, key));
    for (const name of list(to, key)) {
      if (known.has(name)) continue;
      findings.push({
        check: direction === 'request' ? 'request-dependent-required-added' : 'response-dependent-required-removed',
        path: '',
        detail: key,
        to: name,
      });
    }
  }
  const schemas = (s: Schema): Schema => (isObject(s['dependentSchemas']) ? s['dependentSchemas'] : {});
  const before = schemas(o);
  const after = schemas(n);
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    compareSubschema(
      canonicalOf(before, key),
      canonicalOf(after, key),
      direction,
      findings,
      ['request-dependent-schema-changed', 'response-dependent-schema-changed'],
      key,
    );
  }
}

export function compareContains(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
  compareSubschema(canonicalOf(o, 'contains'), canonicalOf(n, 'contains'), direction, findings, [
    'request-contains-changed',
    'response-contains-changed',
  ]);
}

/** Tuples: positions both versions describe are compared like any value; a position gained or lost is reported. */
export function comparePrefixItems(
  o: Schema,
  n: Schema,
  direction: Direction,
  findings: SchemaFinding[],
  compare: Compare,
): void {
  const before: unknown[] = Array.isArray(o['prefixItems']) ? o['prefixItems'] : [];
  const after: unknown[] = Array.isArray(n['prefixItems']) ? n['prefixItems'] : [];
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    for (const f of compare(before[i], after[i], direction))
      findings.push({ ...f, path: `[${i}]${f.path === '' || f.path.startsWith('[') ? '' : '.'}${f.path}` });
  }
  if (direction === 'request' && after.length > before.length)
    findings.push({ check: 'request-prefix-item-added', path: '', detail: String(before.length) });
  if (direction === 'response' && before.length > after.length)
    findings.push({ check: 'response-prefix-item-removed', path: '', detail: String(after.length) });
}

/** `false` is the narrowest, absent or `true` the widest; two schemas are compared as any value. */
export function compareUnevaluated(
  o: Schema,
  n: Schema,
  direction: Direction,
  findings: SchemaFinding[],
  compare: Compare,
): void {
  for (const [keyword, child] of [
    ['unevaluatedProperties', '*'],
    ['unevaluatedItems', '[]'],
  ] as const) {
    const a = has(o, keyword) ? o[keyword] : true;
    const b = has(n, keyword) ? n[keyword] : true;
    if (isObject(a) && isObject(b)) {
      for (const f of compare(a, b, direction))
        findings.push({ ...f, path: f.path === '' ? child : `${child}${f.path.startsWith('[') ? '' : '.'}${f.path}` });
      continue;
    }
    const width = (value: unknown) => (value === false ? 0 : isObject(value) ? 1 : 2);
    if (direction === 'request' && width(b) < width(a))
      findings.push({ check: 'request-unevaluated-restricted', path: '', detail: keyword, to: canonical(b) });
    if (direction === 'response' && width(b) > width(a))
      findings.push({ check: 'response-unevaluated-relaxed', path: '', detail: keyword, from: canonical(a) });
  }
}

/** `not` inverts: a `not` gained narrows a request; a `not` lost widens a response. */
export function compareNot(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
  const before = canonicalOf(o, 'not');
  const after = canonicalOf(n, 'not');
  if (before === after) return;
  if (direction === 'request' && after !== undefined)
    findings.push({ check: before === undefined ? 'request-not-added' : 'request-not-changed', path: '' });
  if (direction === 'response' && before !== undefined)
    findings.push({ check: 'response-not-changed', path: '', from: after ? 'changed' : 'removed' });
}
