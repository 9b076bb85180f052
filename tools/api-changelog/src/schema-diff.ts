import { CHECKS, CheckId } from './checks';
import {
  compareDefaults,
  compareDependentRequired,
  compareNot,
  compareUnevaluated,
  isUntyped,
} from './schema-keywords';
import { asSchema, Compare, Context, Direction, isObject, Schema, SchemaFinding, typeSet, under } from './schema-model';
import {
  compareConditionals,
  compareContentEncoding,
  compareEntryDemands,
  comparePrefixItems,
  compareSingleDemands,
} from './schema-subschemas';
import { compareBounds, compareEnums, compareFormats, compareTypes } from './schema-values';
import { discriminatorOf, matchVariants, wrapping } from './variants';

export type { Context, Direction, SchemaFinding } from './schema-model';
export { joinPath } from './schema-model';
export { matchVariants } from './variants';

const contextKey = (ctx: Context) => `${ctx.direction}${ctx.text ? ':text' : ''}`;

/**
 * Compares two dereferenced schemas as seen by a client (see `Context`). Results are memoised per schema pair and
 * context, because a dereferenced document shares one object per component, and cycles are cut where they close.
 */
export class SchemaDiffer {
  private readonly memo = new Map<string, WeakMap<object, WeakMap<object, SchemaFinding[]>>>();
  private readonly active = new Map<string, WeakMap<object, WeakSet<object>>>();
  private readonly merged = new WeakMap<object, Schema>();
  private readonly recurse: Compare = (a, b, ctx) => this.compare(a, b, ctx);

  /**
   * With the sets of shared objects of both documents ($ref targets), only pairs involving one are memoised and
   * guarded against cycles (a cycle always passes through one); without them, every pair is.
   */
  constructor(private readonly shared?: [WeakSet<object>, WeakSet<object>]) {}

  compare(oldValue: unknown, newValue: unknown, context: Context | Direction): SchemaFinding[] {
    const ctx: Context = typeof context === 'string' ? { direction: context, text: false } : context;
    if (oldValue === newValue || !isObject(oldValue) || !isObject(newValue)) return [];
    if (this.shared && !this.shared[0].has(oldValue) && !this.shared[1].has(newValue))
      return this.compareSchemas(oldValue, newValue, ctx);
    const key = contextKey(ctx);
    const memo = this.table(this.memo, key, () => new WeakMap<object, WeakMap<object, SchemaFinding[]>>());
    const cached = memo.get(oldValue)?.get(newValue);
    if (cached) return cached;
    const running = this.table(this.active, key, () => new WeakMap<object, WeakSet<object>>());
    let active = running.get(oldValue);
    if (active?.has(newValue)) return [];
    if (!active) running.set(oldValue, (active = new WeakSet()));
    active.add(newValue);
    const findings = this.compareSchemas(oldValue, newValue, ctx);
    active.delete(newValue);
    let pairs = memo.get(oldValue);
    if (!pairs) memo.set(oldValue, (pairs = new WeakMap()));
    pairs.set(newValue, findings);
    return findings;
  }

  private table<T>(tables: Map<string, T>, key: string, create: () => T): T {
    let table = tables.get(key);
    if (!table) tables.set(key, (table = create()));
    return table;
  }

  private compareSchemas(o: Schema, n: Schema, ctx: Context): SchemaFinding[] {
    const findings = this.compareMerged(this.flatten(o), this.flatten(n), ctx);
    compareAllOf(o, n, ctx, findings);
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

  private compareMerged(o: Schema, n: Schema, ctx: Context): SchemaFinding[] {
    const findings: SchemaFinding[] = [];
    compareTypes(o, n, ctx, findings);
    compareFormats(o, n, ctx, findings);
    compareEnums(o, n, ctx, findings);
    compareBounds(o, n, ctx, findings);
    const wrap = wrapping(o, n);
    if (wrap) this.compareWrapping(o, n, wrap, ctx, findings);
    // Properties moved into the alternatives are compared there, not reported as removed or added.
    if (!wrap || (isObject(o['properties']) && isObject(n['properties']))) this.compareProperties(o, n, ctx, findings);
    this.compareKeywords31(o, n, ctx, findings);
    if (isObject(o['items']) && isObject(n['items']))
      findings.push(...under('[]', this.compare(o['items'], n['items'], ctx)));
    if (isObject(o['additionalProperties']) && isObject(n['additionalProperties']))
      findings.push(...under('*', this.compare(o['additionalProperties'], n['additionalProperties'], ctx)));
    for (const keyword of ['oneOf', 'anyOf'] as const) this.compareVariants(o, n, keyword, ctx, findings);
    return findings;
  }

  /** Defaults and the JSON Schema 2020-12 keywords of OpenAPI 3.1 (`schema-keywords.ts`, `schema-subschemas.ts`). */
  private compareKeywords31(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
    compareDefaults(o, n, ctx, findings);
    compareConditionals(o, n, ctx, findings, this.recurse);
    compareDependentRequired(o, n, ctx, findings);
    compareEntryDemands(o, n, ctx, findings, this.recurse);
    compareSingleDemands(o, n, ctx, findings, this.recurse);
    compareContentEncoding(o, n, ctx, findings);
    comparePrefixItems(o, n, ctx, findings, this.recurse);
    compareUnevaluated(o, n, ctx, findings, this.recurse);
    compareNot(o, n, ctx, findings);
  }

  private compareProperties(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
    const request = ctx.direction === 'request';
    // As text, a request value that became a plain string accepts whatever the old object's text was.
    if (ctx.text && request && typeSet(n).join() === 'string' && !typeSet(o).includes('string')) return;
    const before = asSchema(o['properties']);
    const after = asSchema(n['properties']);
    // A client never sends readOnly properties and never reads writeOnly ones.
    const hidden = request ? 'readOnly' : 'writeOnly';
    const visible = (props: Schema, name: string) =>
      Object.prototype.hasOwnProperty.call(props, name) && asSchema(props[name])[hidden] !== true;
    const required = (s: Schema, name: string) =>
      Array.isArray(s['required']) && (s['required'] as unknown[]).includes(name);
    for (const name in before) {
      if (!visible(before, name)) continue;
      const oldProp = before[name];
      if (!visible(after, name)) {
        // Still there but now readOnly (request) or writeOnly (response): the server may ignore or still send it.
        const flagged = Object.prototype.hasOwnProperty.call(after, name);
        const check: CheckId = flagged
          ? request
            ? 'request-property-became-read-only'
            : 'response-property-became-write-only'
          : request
            ? 'request-property-removed'
            : 'response-property-removed';
        findings.push({ check, path: name, required: required(o, name) });
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
      // The default of a property a client must send never applies.
      const nested = this.compare(oldProp, newProp, ctx).filter((f) => !(isRequired && f.path === '' && isDefault(f)));
      findings.push(...under(name, nested));
    }
    // A schema that declares no properties and requires names (`then: {required: [x]}`, an allOf member) refers to
    // properties declared alongside it: their requiredness alone. Where a schema declares its properties, a name
    // it requires without declaring is taken as a slip, as oasdiff does.
    const declared = (name: string) =>
      Object.prototype.hasOwnProperty.call(before, name) || Object.prototype.hasOwnProperty.call(after, name);
    const names = (s: Schema) =>
      Array.isArray(s['required']) && !isObject(s['properties']) ? (s['required'] as unknown[]).map(String) : [];
    for (const name of request ? names(n) : names(o)) {
      if (declared(name) || (request ? required(o, name) : required(n, name))) continue;
      findings.push({
        check: request ? 'request-property-became-required' : 'response-property-became-optional',
        path: name,
      });
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

  /**
   * A value wrapped into alternatives, or unwrapped from them, compared with each alternative. A request breaks
   * unless what it accepted is still accepted: by one alternative of an `anyOf` (under `oneOf` a value matching two
   * is refused), or by the plain value for every old alternative. A response breaks unless every value it may now
   * take is one a client handled.
   */
  private compareWrapping(
    o: Schema,
    n: Schema,
    wrap: NonNullable<ReturnType<typeof wrapping>>,
    ctx: Context,
    findings: SchemaFinding[],
  ): void {
    const clean = wrap.alternatives.map((alt) =>
      (wrap.wrapped ? this.compare(o, alt, ctx) : this.compare(alt, n, ctx)).every(
        (f) => CHECKS[f.check].group !== 'breaking',
      ),
    );
    const some = clean.some(Boolean);
    const every = clean.every(Boolean);
    const exclusive = wrap.keyword === 'oneOf' && wrap.alternatives.length > 1;
    const fine =
      ctx.direction === 'request' ? (wrap.wrapped ? some && !exclusive : every) : wrap.wrapped ? every : some;
    if (!fine)
      findings.push({
        check: `${ctx.direction}-variants-restructured`,
        path: '',
        detail: wrap.keyword,
        from: wrap.wrapped ? 'wrapped' : 'unwrapped',
      });
  }

  private compareVariants(
    o: Schema,
    n: Schema,
    keyword: 'oneOf' | 'anyOf',
    ctx: Context,
    findings: SchemaFinding[],
  ): void {
    const before = Array.isArray(o[keyword]) ? (o[keyword] as unknown[]) : undefined;
    const after = Array.isArray(n[keyword]) ? (n[keyword] as unknown[]) : undefined;
    if (!before || !after) return;
    const { pairs, removed, added } = matchVariants(before, after, discriminatorOf(o), discriminatorOf(n));
    for (const [old, now] of pairs) findings.push(...this.compare(old, now, ctx));
    if (ctx.direction === 'request' && removed > 0)
      findings.push({ check: 'request-variant-removed', path: '', detail: keyword });
    if (ctx.direction === 'response' && added > 0)
      findings.push({
        check: keyword === 'oneOf' ? 'response-one-of-added' : 'response-variant-added',
        path: '',
        detail: keyword,
      });
  }
}

export const isDefault = (f: SchemaFinding) => f.check.startsWith('request-default-value-');

/**
 * A request value that must also match one more `allOf` schema may refuse what it accepted. A schema without
 * `allOf` counts as `allOf: [itself]` (wrapping a `$ref` in an `allOf` adds nothing), and a member with no
 * shaping keyword (a description, an example) demands nothing.
 */
function compareAllOf(o: Schema, n: Schema, ctx: Context, findings: SchemaFinding[]): void {
  if (ctx.direction !== 'request' || !Array.isArray(n['allOf'])) return;
  const before = Array.isArray(o['allOf']) ? (o['allOf'] as unknown[]) : [o];
  const { addedItems } = matchVariants(before, n['allOf'] as unknown[]);
  const demanding = addedItems.filter((member) => isObject(member) && !isUntyped(member));
  if (demanding.length > 0)
    findings.push({ check: 'request-all-of-added', path: '', detail: String(demanding.length) });
}
