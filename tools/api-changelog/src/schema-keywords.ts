import { Compare, Context, has, isObject, Schema, SchemaFinding } from './schema-model';

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

export const canonicalOf = (schema: Schema, key: string) => (has(schema, key) ? canonical(schema[key]) : undefined);

/** Patterns that accept every string (the empty one included): generalising to one of them removes the constraint. */
const UNIVERSAL_PATTERNS = new Set(['', '.*', '^.*$', '^.*', '.*$', '[\\s\\S]*', '^[\\s\\S]*$', '(.*)', '^(.*)$']);
export const effectivePattern = (schema: Schema): string | undefined =>
  typeof schema['pattern'] === 'string' && !UNIVERSAL_PATTERNS.has(schema['pattern']) ? schema['pattern'] : undefined;

/** Keywords that give a schema without `type` a shape; a schema with none of them accepts anything. */
const SHAPING = [
  'type',
  'properties',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
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

/**
 * A request default changed, added or removed: a client that omits the value gets other behaviour (or, added or
 * removed, behaviour that was or becomes unspecified). Callers drop it where the value cannot be omitted (a
 * required parameter, property or body), and responses carry no meaningful default.
 */
export function compareDefaults(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  if (ctx.direction !== 'request') return;
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

export function compareDependentRequired(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const list = (s: Schema, key: string): string[] =>
    isObject(s['dependentRequired']) && Array.isArray(s['dependentRequired'][key])
      ? s['dependentRequired'][key].map(String)
      : [];
  const keys = (s: Schema) => (isObject(s['dependentRequired']) ? Object.keys(s['dependentRequired']) : []);
  // Request: a name a dependency newly demands; response: a name it no longer guarantees.
  const request = ctx.direction === 'request';
  const [from, to] = request ? [o, n] : [n, o];
  for (const key of keys(to)) {
    const known = new Set(list(from, key));
    for (const name of list(to, key)) {
      if (known.has(name)) continue;
      findings.push({
        check: request ? 'request-dependent-required-added' : 'response-dependent-required-removed',
        path: '',
        detail: key,
        to: name,
      });
    }
  }
}

/** `false` is the narrowest, absent or `true` the widest; two schemas are compared as any value. */
export function compareUnevaluated(
  o: Schema,
  n: Schema,
  ctx: Context,
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
      for (const f of compare(a, b, ctx))
        findings.push({ ...f, path: f.path === '' ? child : `${child}${f.path.startsWith('[') ? '' : '.'}${f.path}` });
      continue;
    }
    const width = (value: unknown) => (value === false ? 0 : isObject(value) ? 1 : 2);
    if (ctx.direction === 'request' && width(b) < width(a))
      findings.push({ check: 'request-unevaluated-restricted', path: '', detail: keyword, to: canonical(b) });
    if (ctx.direction === 'response' && width(b) > width(a))
      findings.push({ check: 'response-unevaluated-relaxed', path: '', detail: keyword, from: canonical(a) });
  }
}

/** `not` inverts: a `not` gained narrows a request; a `not` lost widens a response; a changed one may do either. */
export function compareNot(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const before = canonicalOf(o, 'not');
  const after = canonicalOf(n, 'not');
  if (before === after) return;
  if (ctx.direction === 'request' && after !== undefined)
    findings.push({ check: before === undefined ? 'request-not-added' : 'request-not-changed', path: '' });
  if (ctx.direction === 'response' && before !== undefined)
    findings.push({ check: 'response-not-changed', path: '', from: after ? 'changed' : 'removed' });
}
