/**
 * Many oasdiff checker tests load one spec twice and set a field on one copy in Go before the diff
 * (`s2.Spec.Paths.Value(p).Get.Parameters.GetByInAndName(openapi3.ParameterInPath, "domain").Schema.Value.MaxLength = &v`).
 * The simple ones, a chain of kin-openapi accessors ending in a field set to a literal, are replayed here on our
 * own dereferenced copy of the same file; anything else (builders, helpers, appends) makes the test unreplayable.
 */

export type Step = string | number | { in: string; name: string };
export const REMOVE = Symbol('remove');
export interface SpecEdit {
  spec: string;
  steps: Step[];
  value: unknown;
}

/** kin-openapi fields and the OpenAPI keys they hold; `null` = a wrapper with no key of its own (`.Value`). */
const FIELDS: Record<string, string | null> = {
  Spec: null,
  Value: null,
  Paths: 'paths',
  Get: 'get',
  Put: 'put',
  Post: 'post',
  Delete: 'delete',
  Patch: 'patch',
  Head: 'head',
  Options: 'options',
  Trace: 'trace',
  Parameters: 'parameters',
  RequestBody: 'requestBody',
  Responses: 'responses',
  Content: 'content',
  Schema: 'schema',
  Headers: 'headers',
  Properties: 'properties',
  Items: 'items',
  Components: 'components',
  Schemas: 'schemas',
  AllOf: 'allOf',
  OneOf: 'oneOf',
  AnyOf: 'anyOf',
  Not: 'not',
  Default: 'default',
  Type: 'type',
  Format: 'format',
  Required: 'required',
  Enum: 'enum',
  Nullable: 'nullable',
  ReadOnly: 'readOnly',
  WriteOnly: 'writeOnly',
  Deprecated: 'deprecated',
  Pattern: 'pattern',
  Min: 'minimum',
  Max: 'maximum',
  MinLength: 'minLength',
  MaxLength: 'maxLength',
  MinItems: 'minItems',
  MaxItems: 'maxItems',
  MinProps: 'minProperties',
  MaxProps: 'maxProperties',
  UniqueItems: 'uniqueItems',
  Const: 'const',
  Description: 'description',
  Title: 'title',
  OperationID: 'operationId',
  Summary: 'summary',
  Style: 'style',
  Explode: 'explode',
};
/** Accessor calls that pick a member by key: `Paths.Value("/p")`, `Responses.Value("200")`, `Content.Get("x")`. */
const KEYED_CALLS = new Set(['Value', 'Find', 'Get', 'Status']);

/** A Go literal as JSON, or undefined when it is not one we can read. */
export function goLiteral(text: string, locals: Map<string, unknown>): unknown {
  const t = text.trim();
  if (t === 'nil') return REMOVE;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  // A Go string is a JSON string but for escapes JSON lacks (`\a`, `\v`, octal...), kept literally.
  if (/^"(?:[^"\\]|\\.)*"$/.test(t))
    return JSON.parse(t.replace(/\\(.)/g, (all, ch: string) => ('"\\/bfnrtu'.includes(ch) ? all : `\\\\${ch}`)));
  if (/^`[^`]*`$/.test(t)) return t.slice(1, -1);
  const wrapped =
    /^(?:u?int(?:8|16|32|64)?|float(?:32|64)|openapi3\.(?:Ptr|Float64Ptr|Uint64Ptr|Int64Ptr|BoolPtr))\((.*)\)$/.exec(t);
  if (wrapped) return goLiteral(wrapped[1] as string, locals);
  const pointer = /^&(\w+)$/.exec(t);
  if (pointer) return locals.get(pointer[1] as string);
  if (locals.has(t)) return locals.get(t);
  const list = /^&?(?:openapi3\.Types|\[\](?:string|any|interface\{\}|float64|int))\{(.*)\}$/s.exec(t);
  if (list) {
    const items = splitTopLevel(list[1] as string).map((item) => goLiteral(item, locals));
    if (items.some((item) => item === undefined || item === REMOVE)) return undefined;
    return /Types/.test(t) && items.length === 1 ? items[0] : items;
  }
  return undefined;
}

/** Splits `a, "b,c", f(d, e)` at the commas outside strings and brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if ('([{'.includes(ch as string)) depth++;
    else if (')]}'.includes(ch as string)) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** `.Paths.Value(P).Get.Parameters.GetByInAndName(openapi3.ParameterInPath, "domain").Schema.Value` as steps. */
export function readChain(chain: string, consts: Map<string, string>): Step[] | undefined {
  const steps: Step[] = [];
  const token = /^\.(\w+)(?:\(((?:[^()"]|"(?:[^"\\]|\\.)*")*)\))?|^\[((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\]/;
  const key = (arg: string): string | number | undefined => {
    const value = goLiteral(arg, new Map());
    if (typeof value === 'string' || typeof value === 'number') return value;
    const name = arg.trim().replace(/^(diff|checker|openapi3)\./, '');
    return consts.get(name);
  };
  let rest = chain;
  while (rest !== '') {
    const m = token.exec(rest);
    if (!m) return undefined;
    rest = rest.slice(m[0].length);
    const [, field, args, index] = m;
    if (index !== undefined) {
      const k = key(index);
      if (k === undefined) return undefined;
      steps.push(k);
    } else if (args !== undefined && field === 'GetByInAndName') {
      const [where, name] = splitTopLevel(args);
      const place = /ParameterIn(\w+)/.exec(where ?? '')?.[1];
      const n = key(name ?? '');
      if (!place || typeof n !== 'string') return undefined;
      steps.push({ in: place.toLowerCase(), name: n });
    } else if (args !== undefined && KEYED_CALLS.has(field as string)) {
      const k = key(args);
      if (k === undefined) return undefined;
      steps.push(String(k));
    } else if (args !== undefined) return undefined;
    else if (field === 'Extensions') continue;
    else if (FIELDS[field as string] === undefined) return undefined;
    else if (FIELDS[field as string] !== null) steps.push(FIELDS[field as string] as string);
  }
  return steps;
}

/** Go statements of a body: lines joined while a bracket is open. */
export function statements(body: string): string[] {
  const result: string[] = [];
  let current = '';
  let depth = 0;
  for (const line of body.split('\n')) {
    const code = line.replace(/\/\/.*$/, '').trim();
    if (code === '' && depth === 0) continue;
    current = current === '' ? code : `${current} ${code}`;
    for (const ch of code.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
      if ('([{'.includes(ch)) depth++;
      else if (')]}'.includes(ch)) depth--;
    }
    if (depth <= 0) {
      result.push(current);
      current = '';
      depth = 0;
    }
  }
  return result;
}

/**
 * The edits a test makes to its loaded specs `vars` before the diff, or the first statement that cannot be
 * replayed. `helpers` are one-line functions returning a chain from their spec argument.
 */
export function readEdits(body: string, vars: string[], helpers: EditHelpers): SpecEdit[] | string {
  const { consts, accessors } = helpers;
  const roots = new Map<string, { spec: string; steps: Step[] }>();
  const locals = new Map<string, unknown>();
  const edits: SpecEdit[] = [];
  const mentions = (text: string) => [...vars, ...roots.keys()].some((v) => new RegExp(`\\b${v}\\b`).test(text));
  const resolve = (lhs: string): { spec: string; steps: Step[] } | undefined => {
    const helper = /^(\w+)\((\w+)\)(.*)$/.exec(lhs);
    if (helper && accessors.has(helper[1] as string) && vars.includes(helper[2] as string)) {
      const steps = readChain(`${accessors.get(helper[1] as string) as string}${helper[3] as string}`, consts);
      return steps && { spec: helper[2] as string, steps };
    }
    const m = /^(\w+)((?:\.|\[).*)?$/.exec(lhs);
    if (!m) return undefined;
    const root = vars.includes(m[1] as string)
      ? { spec: m[1] as string, steps: [] as Step[] }
      : roots.get(m[1] as string);
    const steps = root && readChain(m[2] ?? '', consts);
    return root && steps && { spec: root.spec, steps: [...root.steps, ...steps] };
  };
  for (const statement of statements(body)) {
    const define = /^(\w+)\s*:=\s*(.+)$/.exec(statement) ?? /^var (\w+)(?: \w+)? = (.+)$/.exec(statement);
    if (define && !mentions(define[2] as string)) {
      const value = goLiteral(define[2] as string, locals);
      if (value !== undefined) locals.set(define[1] as string, value);
      continue;
    }
    if (!mentions(statement)) continue;
    if (/^\w+(, \w+)? :?= (open|l|loadFrom|load\.NewSpecInfo)\(/.test(statement)) continue;
    if (/diff\.GetWithOperationsSourcesMap\(/.test(statement)) continue;
    if (define) {
      const root = resolve(define[2] as string);
      if (!root) return statement;
      roots.set(define[1] as string, root);
      continue;
    }
    const removal = readRemoval(statement, resolve, helpers);
    if (removal !== undefined) {
      if (removal === false) return statement;
      edits.push(removal);
      continue;
    }
    const setter = /^(\w+)\(t, (\w+), (.+)\)$/.exec(statement);
    if (setter && helpers.setters.has(setter[1] as string) && vars.includes(setter[2] as string)) {
      const steps = readChain(helpers.setters.get(setter[1] as string) as string, consts);
      const value = goLiteral(setter[3] as string, locals);
      if (!steps || value === undefined) return statement;
      edits.push({ spec: setter[2] as string, steps, value });
      continue;
    }
    const assign = /^(.+?)\s*=\s*(.+)$/.exec(statement);
    const target = assign && !/[:!<>=]$/.test(assign[1] as string) ? resolve(assign[1] as string) : undefined;
    const value = assign ? goLiteral(assign[2] as string, locals) : undefined;
    if (!target || target.steps.length === 0 || value === undefined) return statement;
    edits.push({ spec: target.spec, steps: target.steps, value });
  }
  return edits;
}

/** What the test files define for all tests, as edits use it. */
export interface EditHelpers {
  consts: Map<string, string>;
  /** `func name(s *load.SpecInfo) *openapi3.X { return s.Spec... }`: name to the chain after `s`. */
  accessors: Map<string, string>;
  /** `func name(t *testing.T, s *load.SpecInfo, v T) { t.Helper(); s.Spec... = v }`: name to the chain set. */
  setters: Map<string, string>;
  /** `func name(x *openapi3.T, key string) { delete(x.Headers, key) }`: name to the chain of the map. */
  deleters: Map<string, string>;
}

type Resolve = (lhs: string) => { spec: string; steps: Step[] } | undefined;

/**
 * `delete(chain, "key")`, `chain.Delete("key")` or a one-line delete helper: a removal (undefined: not one;
 * false: one we cannot place).
 */
function readRemoval(statement: string, resolve: Resolve, helpers: EditHelpers): SpecEdit | false | undefined {
  const direct = /^delete\((.+), (.+)\)$/.exec(statement) ?? /^(.+)\.Delete\((.+)\)$/.exec(statement);
  const helper = /^(\w+)\((.+), (.+)\)$/.exec(statement);
  const [target, keyText] = direct
    ? [direct[1] as string, direct[2] as string]
    : helper && helpers.deleters.has(helper[1] as string)
      ? [`${helper[2] as string}${helpers.deleters.get(helper[1] as string) as string}`, helper[3] as string]
      : [undefined, undefined];
  if (target === undefined || keyText === undefined) return undefined;
  const root = resolve(target);
  const key = goLiteral(keyText, new Map()) ?? helpers.consts.get(keyText.trim());
  if (!root || (typeof key !== 'string' && typeof key !== 'number')) return false;
  return { spec: root.spec, steps: [...root.steps, String(key)], value: REMOVE };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/** Applies edits to a dereferenced document; false when a step names nothing there (the test cannot be replayed). */
export function applyEdits(doc: Loose, edits: SpecEdit[]): boolean {
  for (const edit of edits) {
    let at: Loose | undefined = doc;
    for (const step of edit.steps.slice(0, -1)) {
      at = typeof step === 'object' ? findParameter(at, step) : (at?.[step] as Loose | undefined);
      if (at === undefined || at === null || typeof at !== 'object') return false;
    }
    const last = edit.steps[edit.steps.length - 1] as string | number;
    if (typeof last === 'object') return false;
    if (edit.value === REMOVE) delete at[last];
    else at[last] = edit.value;
  }
  return true;
}

/** kin-openapi's `Parameters.GetByInAndName` on an operation (or path item) parameter list. */
function findParameter(list: unknown, step: { in: string; name: string }): Loose | undefined {
  return Array.isArray(list)
    ? (list as Loose[]).find((p) => p?.['in'] === step.in && p?.['name'] === step.name)
    : undefined;
}
