import { CheckId } from './checks';
import { schemaNames } from './dereference';
import {
  compareConditionals,
  compareContains,
  compareDefaults,
  compareDependencies,
  compareNot,
  comparePrefixItems,
  compareUnevaluated,
  effectivePattern,
  isUntyped,
} from './schema-keywords';

/** A difference found inside one schema; `path` is the property path from the compared root ('' = the root). */
export interface SchemaFinding {
  check: CheckId;
  path: string;
  from?: string;
  to?: string;
  /** Whether a removed or added property is required (in the old or the new document). */
  required?: boolean;
  /** Bound name (`maxLength`), enum value, or `oneOf`/`anyOf`. */
  detail?: string;
}

export type Direction = 'request' | 'response';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asSchema = (value: unknown): Schema => (isObject(value) ? value : {});

/** `scans` + `[].id` = `scans[].id`; `a` + `b` = `a.b`. */
export function joinPath(parent: string, child: string): string {
  if (child === '') return parent;
  if (parent === '') return child;
  return child.startsWith('[') ? `${parent}${child}` : `${parent}.${child}`;
}

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

function typeSet(schema: Schema): string[] {
  const raw = schema['type'];
  const types: string[] = Array.isArray(raw) ? [...raw] : typeof raw === 'string' ? [raw] : [];
  if (types.length > 0 && schema['nullable'] === true && !types.includes('null')) types.push('null');
  return types;
}

const accepts = (types: string[], type: string) =>
  types.includes(type) || (type === 'integer' && types.includes('number'));
const showTypes = (types: string[]) => types.join(' | ');
const show = (value: unknown) =>
  value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Compares two dereferenced schemas as seen by a client: `request` values are what it sends (narrowing breaks it),
 * `response` values what it reads (widening breaks it). Results are memoised per schema pair, because a
 * dereferenced document shares one object per component, and cycles are cut where they close.
 */
export class SchemaDiffer {
  private readonly memo: Record<Direction, WeakMap<object, WeakMap<object, SchemaFinding[]>>> = {
    request: new WeakMap(),
    response: new WeakMap(),
  };
  private readonly active: Record<Direction, WeakMap<object, WeakSet<object>>> = {
    request: new WeakMap(),
    response: new WeakMap(),
  };
  private readonly merged = new WeakMap<object, Schema>();

  /**
   * With the sets of shared objects of both documents ($ref targets), only pairs involving one are memoised and
   * guarded against cycles (a cycle always passes through one); without them, every pair is.
   */
  constructor(private readonly shared?: [WeakSet<object>, WeakSet<object>]) {}

  compare(oldValue: unknown, newValue: unknown, direction: Direction): SchemaFinding[] {
    if (oldValue === newValue || !isObject(oldValue) || !isObject(newValue)) return [];
    if (this.shared && !this.shared[0].has(oldValue) && !this.shared[1].has(newValue)) {
      return this.compareMerged(this.flatten(oldValue), this.flatten(newValue), direction);
    }
    const cached = this.memo[direction].get(oldValue)?.get(newValue);
    if (cached) return cached;
    let active = this.active[direction].get(oldValue);
    if (active?.has(newValue)) return [];
    if (!active) this.active[direction].set(oldValue, (active = new WeakSet()));
    active.add(newValue);
    const findings = this.compareMerged(this.flatten(oldValue), this.flatten(newValue), direction);
    active.delete(newValue);
    let memo = this.memo[direction].get(oldValue);
    if (!memo) this.memo[direction].set(oldValue, (memo = new WeakMap()));
    memo.set(newValue, findings);
    return findings;
  }

  /** allOf members folded into one schema (properties and required merged), cached per object. */
  private flatten(schema: Schema): Schema {
    if (!Array.isArray(schema['allOf'])) return schema;
    const hit = this.merged.get(schema);
    if (hit) return hit;
    const result: Schema = {};
    const properties: Schema = {};
    const required = new Set<string>();
    for (const member of [
      ...(schema['allOf'] as unknown[]).map((m) => this.flatten(asSchema(m))),
      { ...schema, allOf: undefined },
    ]) {
      for (const [key, value] of Object.entries(member)) {
        if (key === 'properties') Object.assign(properties, value);
        else if (key === 'required' && Array.isArray(value)) value.forEach((name) => required.add(String(name)));
        else if (value !== undefined && key !== 'allOf') result[key] = value;
      }
    }
    if (Object.keys(properties).length > 0) result['properties'] = properties;
    if (required.size > 0) result['required'] = [...required];
    this.merged.set(schema, result);
    return result;
  }

  private compareMerged(o: Schema, n: Schema, direction: Direction): SchemaFinding[] {
    const findings: SchemaFinding[] = [];
    this.compareTypes(o, n, direction, findings);
    this.compareFormats(o, n, direction, findings);
    this.compareEnums(o, n, direction, findings);
    this.compareBounds(o, n, direction, findings);
    this.compareProperties(o, n, direction, findings);
    this.compareKeywords31(o, n, direction, findings);
    if (isObject(o['items']) && isObject(n['items'])) {
      for (const f of this.compare(o['items'], n['items'], direction))
        findings.push({ ...f, path: joinPath('[]', f.path) });
    }
    if (isObject(o['additionalProperties']) && isObject(n['additionalProperties'])) {
      for (const f of this.compare(o['additionalProperties'], n['additionalProperties'], direction))
        findings.push({ ...f, path: joinPath('*', f.path) });
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) this.compareVariants(o, n, keyword, direction, findings);
    return findings;
  }

  /** Defaults and the JSON Schema 2020-12 keywords of OpenAPI 3.1 (`src/schema-keywords.ts`). */
  private compareKeywords31(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
    const compare = (a: unknown, b: unknown, d: Direction) => this.compare(a, b, d);
    compareDefaults(o, n, direction, findings);
    compareConditionals(o, n, direction, findings);
    compareDependencies(o, n, direction, findings);
    compareContains(o, n, direction, findings);
    comparePrefixItems(o, n, direction, findings, compare);
    compareUnevaluated(o, n, direction, findings, compare);
    compareNot(o, n, direction, findings);
  }

  private compareTypes(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
    const before = typeSet(o);
    const after = typeSet(n);
    // A schema with no shaping keyword at all accepts anything: gaining a type narrows it, losing one widens it.
    if (direction === 'request' && isUntyped(o) && after.length > 0)
      return void findings.push({ check: 'request-type-restricted', path: '', from: 'any', to: showTypes(after) });
    if (direction === 'response' && before.length > 0 && isUntyped(n))
      return void findings.push({ check: 'response-type-unrestricted', path: '', from: showTypes(before), to: 'any' });
    if (before.length === 0 || after.length === 0) return;
    const broken =
      direction === 'request' ? before.some((t) => !accepts(after, t)) : after.some((t) => !accepts(before, t));
    if (broken) {
      findings.push({
        check: direction === 'request' ? 'request-type-changed' : 'response-type-changed',
        path: '',
        from: showTypes(before),
        to: showTypes(after),
      });
    }
  }

  private compareFormats(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
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
      if (direction === 'request' && !widened) push('request-format-narrowed');
      if (direction === 'response' && widened) push('response-format-widened');
      return;
    }
    if (direction === 'request' && to !== undefined) push('request-format-changed');
    if (direction === 'response' && from !== undefined)
      push(to === undefined ? 'response-format-widened' : 'response-format-changed');
  }

  /** Enums and `const` (a one-value enum, reported under its own checks). */
  private compareEnums(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
    const values = (s: Schema) =>
      Array.isArray(s['enum'])
        ? (s['enum'] as unknown[]).map((v) => JSON.stringify(v))
        : s['const'] !== undefined
          ? [JSON.stringify(s['const'])]
          : undefined;
    const isConst = (s: Schema) => !Array.isArray(s['enum']) && s['const'] !== undefined;
    const before = values(o);
    const after = values(n);
    if (direction === 'request') {
      if (before && after) {
        const kept = new Set(after);
        const removed = before.filter((value) => !kept.has(value));
        if (removed.length > 0 && isConst(n))
          findings.push({ check: 'request-const-changed', path: '', from: before.join(', '), to: after[0] });
        else
          for (const value of removed) findings.push({ check: 'request-enum-value-removed', path: '', detail: value });
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

  private compareBounds(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
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
        if (direction === 'request' && tighter)
          findings.push({
            check: 'request-bounds-tightened',
            path: '',
            detail: key,
            from: show(before),
            to: show(after),
          });
        if (direction === 'response' && !tighter && before !== undefined) {
          findings.push({
            check: 'response-bounds-widened',
            path: '',
            detail: key,
            from: show(before),
            to: show(after),
          });
        }
      }
    }
    // A pattern removed or generalised to `.*` only widens what a request accepts.
    const pattern = effectivePattern(n);
    const previous = effectivePattern(o);
    if (direction === 'request' && pattern !== undefined && pattern !== previous) {
      findings.push({
        check: previous === undefined ? 'request-pattern-added' : 'request-pattern-changed',
        path: '',
        from: show(previous),
        to: pattern,
      });
    }
  }

  private compareProperties(o: Schema, n: Schema, direction: Direction, findings: SchemaFinding[]): void {
    const before = asSchema(o['properties']);
    const after = asSchema(n['properties']);
    // A client never sends readOnly properties and never reads writeOnly ones.
    const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
    const visible = (props: Schema, name: string) =>
      Object.prototype.hasOwnProperty.call(props, name) && asSchema(props[name])[hidden] !== true;
    const required = (s: Schema, name: string) =>
      Array.isArray(s['required']) && (s['required'] as unknown[]).includes(name);
    const request = direction === 'request';
    for (const name in before) {
      if (!visible(before, name)) continue;
      const oldProp = before[name];
      if (!visible(after, name)) {
        findings.push({
          check: request ? 'request-property-removed' : 'response-property-removed',
          path: name,
          required: required(o, name),
        });
        continue;
      }
      const newProp = after[name];
      const wasRequired = required(o, name);
      const isRequired = required(n, name);
      if (request && !wasRequired && isRequired)
        findings.push({ check: 'request-property-became-required', path: name });
      if (!request && wasRequired && !isRequired)
        findings.push({ check: 'response-property-became-optional', path: name });
      if (asSchema(oldProp)['deprecated'] !== true && asSchema(newProp)['deprecated'] === true) {
        findings.push({ check: request ? 'request-property-deprecated' : 'response-property-deprecated', path: name });
      }
      for (const f of this.compare(oldProp, newProp, direction)) findings.push({ ...f, path: joinPath(name, f.path) });
    }
    for (const name in after) {
      if (!visible(after, name) || visible(before, name)) continue;
      const isRequired = required(n, name);
      const check: CheckId = request
        ? isRequired
          ? 'new-required-request-property'
          : 'new-optional-request-property'
        : 'response-property-added';
      findings.push({ check, path: name, required: isRequired });
    }
  }

  private compareVariants(
    o: Schema,
    n: Schema,
    keyword: 'oneOf' | 'anyOf',
    direction: Direction,
    findings: SchemaFinding[],
  ): void {
    const before = Array.isArray(o[keyword]) ? (o[keyword] as unknown[]) : undefined;
    const after = Array.isArray(n[keyword]) ? (n[keyword] as unknown[]) : undefined;
    if (!before || !after) return;
    const { pairs, removed, added } = matchVariants(before, after, discriminatorOf(o), discriminatorOf(n));
    for (const [old, now] of pairs) findings.push(...this.compare(old, now, direction));
    if (direction === 'request' && removed > 0)
      findings.push({ check: 'request-variant-removed', path: '', detail: keyword });
    if (direction === 'response' && added > 0)
      findings.push({ check: 'response-variant-added', path: '', detail: keyword });
  }
}

const discriminatorOf = (schema: Schema): string | undefined =>
  isObject(schema['discriminator']) ? schema['discriminator']['propertyName'] : undefined;

/**
 * What makes an alternative the same one in both versions: its component name, else its discriminator value,
 * else its `title`, else (not an object or array) its types. Undefined: only its position can tell.
 */
function variantIdentity(alternative: unknown, discriminator: string | undefined): string | undefined {
  if (!isObject(alternative)) return undefined;
  const name = schemaNames.get(alternative);
  if (name !== undefined) return `component ${name}`;
  const tag = discriminator === undefined ? undefined : asSchema(asSchema(alternative['properties'])[discriminator]);
  const tagValues =
    tag === undefined
      ? undefined
      : tag['const'] !== undefined
        ? [tag['const']]
        : Array.isArray(tag['enum'])
          ? tag['enum']
          : undefined;
  if (tagValues) return `discriminator ${JSON.stringify([...tagValues].sort())}`;
  if (typeof alternative['title'] === 'string') return `title ${alternative['title']}`;
  const types = typeSet(alternative);
  if (types.length > 0 && !types.includes('object') && !types.includes('array'))
    return `types ${[...types].sort().join('|')}`;
  return undefined;
}

/**
 * Pairs the alternatives of two versions by identity (so reordering is no change), then the ones without one
 * by their order among themselves; what is left over was removed (old side) or added (new side).
 */
export function matchVariants(
  before: unknown[],
  after: unknown[],
  discriminatorBefore?: string,
  discriminatorAfter?: string,
) {
  const keyed = (list: unknown[], discriminator?: string) => {
    const keys = list.map((alternative) => variantIdentity(alternative, discriminator));
    // An identity two alternatives share identifies neither.
    return keys.map((key) => (key !== undefined && keys.indexOf(key) === keys.lastIndexOf(key) ? key : undefined));
  };
  const oldKeys = keyed(before, discriminatorBefore);
  const newKeys = keyed(after, discriminatorAfter);
  const pairs: Array<[unknown, unknown]> = [];
  const matchedOld = new Set<number>();
  const matchedNew = new Set<number>();
  newKeys.forEach((key, j) => {
    const i = key === undefined ? -1 : oldKeys.indexOf(key);
    if (i < 0) return;
    pairs.push([before[i], after[j]]);
    matchedOld.add(i);
    matchedNew.add(j);
  });
  const oldRest = before.map((_, i) => i).filter((i) => !matchedOld.has(i) && oldKeys[i] === undefined);
  const newRest = after.map((_, j) => j).filter((j) => !matchedNew.has(j) && newKeys[j] === undefined);
  for (let k = 0; k < Math.min(oldRest.length, newRest.length); k++) {
    pairs.push([before[oldRest[k]], after[newRest[k]]]);
    matchedOld.add(oldRest[k]);
    matchedNew.add(newRest[k]);
  }
  return { pairs, removed: before.length - matchedOld.size, added: after.length - matchedNew.size };
}
