import type { CheckId } from './checks';
import { isUntyped, effectivePattern } from './schema-keywords';
import { Context, Schema, SchemaFinding, show, typeSet } from './schema-model';
import { bareTypes } from './variants';

const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'] as const;
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'] as const;

/** Numeric formats ordered by width inside their family; no format at all is wider than any. */
const NUMERIC_FORMATS: Record<string, { family: string; rank: number }> = {
  int32: { family: 'signed', rank: 1 },
  int64: { family: 'signed', rank: 2 },
  uint32: { family: 'unsigned', rank: 1 },
  uint64: { family: 'unsigned', rank: 2 },
  float: { family: 'float', rank: 1 },
  double: { family: 'float', rank: 2 },
};

/**
 * The types a schema allows. A `oneOf`/`anyOf` of bare types is a list of types (oasdiff's "list-of-types") when
 * the other version does not use the same keyword (then the alternatives are matched one by one instead).
 */
function typesOf(schema: Schema, other: Schema): string[] {
  const own = typeSet(schema);
  if (own.length > 0) return own;
  for (const keyword of ['oneOf', 'anyOf']) {
    const list: unknown = schema[keyword];
    if (!Array.isArray(list) || Array.isArray(other[keyword])) continue;
    if (bareTypes(list)) return [...new Set(list.flatMap((alt) => typeSet(alt as Schema)))];
  }
  return [];
}

/** Whether a value of `type` is accepted by `types`: integers are numbers, and as text a string holds anything. */
const accepts = (types: string[], type: string, text: boolean) =>
  types.includes(type) || (type === 'integer' && types.includes('number')) || (text && types.includes('string'));
const showTypes = (types: string[]) => types.join(' | ');

export function compareTypes(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const before = typesOf(o, n);
  const after = typesOf(n, o);
  // A schema with no shaping keyword at all accepts anything: gaining a type narrows it, losing one widens it.
  if (ctx.direction === 'request' && isUntyped(o) && after.length > 0)
    return void findings.push({ check: 'request-type-restricted', path: '', from: 'any', to: showTypes(after) });
  if (ctx.direction === 'response' && before.length > 0 && isUntyped(n))
    return void findings.push({ check: 'response-type-unrestricted', path: '', from: showTypes(before), to: 'any' });
  if (before.length === 0 || after.length === 0) return;
  const broken =
    ctx.direction === 'request'
      ? before.some((t) => !accepts(after, t, ctx.text))
      : after.some((t) => !accepts(before, t, ctx.text));
  if (broken) {
    findings.push({
      check: ctx.direction === 'request' ? 'request-type-changed' : 'response-type-changed',
      path: '',
      from: showTypes(before),
      to: showTypes(after),
    });
  }
}

export function compareFormats(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const from = typeof o['format'] === 'string' ? o['format'] : undefined;
  const to = typeof n['format'] === 'string' ? n['format'] : undefined;
  if (from === to) return;
  const push = (check: CheckId) => findings.push({ check, path: '', from: show(from), to: show(to) });
  if ((from === 'uint32' || from === 'uint64') && to === 'int64') return void push('integer-format-widened-to-int64');
  const a = from === undefined ? undefined : NUMERIC_FORMATS[from];
  const b = to === undefined ? undefined : NUMERIC_FORMATS[to];
  const comparable = (a || from === undefined) && (b || to === undefined) && (!a || !b || a.family === b.family);
  if (comparable) {
    const widened = (b?.rank ?? 3) > (a?.rank ?? 3);
    if (ctx.direction === 'request' && !widened) push('request-format-narrowed');
    if (ctx.direction === 'response' && widened) push('response-format-widened');
    return;
  }
  if (ctx.direction === 'request' && to !== undefined) push('request-format-changed');
  // A response losing a non-numeric format (a date-time, a uuid) may now hold text a client fails to parse.
  if (ctx.direction === 'response' && from !== undefined) push('response-format-changed');
}

/** Enums and `const` (a one-value enum, reported under its own checks). */
export function compareEnums(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const values = (s: Schema) =>
    Array.isArray(s['enum'])
      ? (s['enum'] as unknown[]).map((v) => JSON.stringify(v))
      : s['const'] !== undefined
        ? [JSON.stringify(s['const'])]
        : undefined;
  const isConst = (s: Schema) => !Array.isArray(s['enum']) && s['const'] !== undefined;
  const before = values(o);
  const after = values(n);
  if (ctx.direction === 'request') {
    if (before && after) {
      const kept = new Set(after);
      const removed = before.filter((value) => !kept.has(value));
      if (removed.length > 0 && isConst(n))
        findings.push({ check: 'request-const-changed', path: '', from: before.join(', '), to: after[0] });
      else for (const value of removed) findings.push({ check: 'request-enum-value-removed', path: '', detail: value });
    } else if (!before && after) {
      findings.push(
        isConst(n)
          ? { check: 'request-const-added', path: '', to: after[0] }
          : { check: 'request-enum-added', path: '', to: after.join(', ') },
      );
    }
  } else if (before && after) {
    const known = new Set(before);
    const added = after.filter((value) => !known.has(value));
    if (added.length > 0 && isConst(o))
      findings.push({ check: 'response-const-changed', path: '', from: before[0], to: after.join(', ') });
    else for (const value of added) findings.push({ check: 'response-enum-value-added', path: '', detail: value });
  } else if (before && !after) {
    findings.push(
      isConst(o)
        ? { check: 'response-const-removed', path: '', from: before[0] }
        : { check: 'response-enum-removed', path: '' },
    );
  }
}

/** Bounds (incl. `minContains`/`maxContains`) and patterns. */
export function compareBounds(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  const num = (s: Schema, key: string) => (typeof s[key] === 'number' ? (s[key] as number) : undefined);
  for (const [keys, upper] of [
    [UPPER_BOUNDS, true],
    [LOWER_BOUNDS, false],
  ] as const) {
    for (const key of keys) {
      const before = num(o, key);
      const after = num(n, key);
      if (before === after) continue;
      // Tighter: an upper bound lowered or added, a lower bound raised or added.
      const tighter = after !== undefined && (before === undefined || (upper ? after < before : after > before));
      const detail = { path: '', detail: key, from: show(before), to: show(after) };
      if (ctx.direction === 'request' && tighter) findings.push({ check: 'request-bounds-tightened', ...detail });
      if (ctx.direction === 'response' && !tighter && before !== undefined)
        findings.push({ check: 'response-bounds-widened', ...detail });
    }
  }
  // A pattern removed or generalised to `.*` only widens what a request accepts.
  const pattern = effectivePattern(n);
  const previous = effectivePattern(o);
  if (ctx.direction === 'request' && pattern !== undefined && pattern !== previous) {
    findings.push({
      check: previous === undefined ? 'request-pattern-added' : 'request-pattern-changed',
      path: '',
      from: show(previous),
      to: pattern,
    });
  }
}
