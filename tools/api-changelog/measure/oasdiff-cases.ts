import { EditHelpers, readEdits, SpecEdit } from './oasdiff-edits';

/**
 * Reads oasdiff's checker tests (Go source, read as text: nothing of it is copied here) into cases: a pair of spec
 * files under `data/`, and what oasdiff expects of it. Only tests that diff two files as they are count; a test
 * that edits a loaded spec in code, loads through a helper or a table, or diffs more than once is skipped with
 * its reason, so the suite's coverage is reported honestly.
 */

export type Level = 'ERR' | 'WARN' | 'INFO';

/** One rule of oasdiff's registry (`checker/rules.go`). */
export interface Rule {
  id: string;
  level: Level;
  /** The Go name of the check that emits it, e.g. `RequestPropertyContainsUpdatedCheck`. */
  check: string;
  area: string;
}

/** Where a test says the change it expects is (from its `checker.ApiChange{...}` literals). */
export interface Anchor {
  operation?: string;
  path?: string;
}

export type Expectation =
  /** The test requires this rule id in the result, at one of `anchors` when it names any. */
  | { type: 'id'; id: string; level: Level; anchors: Anchor[] }
  /** The test requires an empty result from every check (`require.Empty` after all checks at ERR+WARN or INFO). */
  | { type: 'nothing'; untilInfo: boolean }
  /** The test requires an empty result from one check. */
  | { type: 'check-silent'; check: string }
  /** The test requires this breaking (ERR) rule id NOT to be in the result, and requires nothing else. */
  | { type: 'not-id'; id: string };

export interface Case {
  test: string;
  file: string;
  base: string;
  revision: string;
  /** Field edits the test makes in Go before the diff, replayed on our copies (`oasdiff-edits.ts`). */
  edits?: { base: SpecEdit[]; revision: SpecEdit[] };
  /** Loader options the test asks for (`load.WithFlattenParams()`), which change what oasdiff sees. */
  options?: string[];
  expect: Expectation;
}

export interface Skipped {
  test: string;
  file: string;
  reason: string;
}

/** `RequestBodyIfAddedId = "request-body-if-added"` in the non-test sources. */
export function readIdConstants(goSources: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const text of goSources)
    for (const m of text.matchAll(/^\s*(\w+Id)\s*=\s*"([^"]+)"/gm)) ids.set(m[1] as string, m[2] as string);
  return ids;
}

/** `newBackwardCompatibilityRule(IdConst, ERR, HandlerCheck, Direction, AreaX, ...)` in `rules.go`. */
export function readRules(rulesGo: string, ids: Map<string, string>): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  const re = /newBackwardCompatibilityRule\(\s*(\w+),\s*(ERR|WARN|INFO),\s*(\w+),\s*\w+,\s*(\w+)/g;
  for (const m of rulesGo.matchAll(re)) {
    const id = ids.get(m[1] as string);
    if (id === undefined) continue;
    rules.set(id, { id, level: m[2] as Level, check: m[3] as string, area: (m[4] as string).replace(/^Area/, '') });
  }
  return rules;
}

/** `deprecationFile = dataFileFn("deprecation")`: helpers that name a file under a data folder. */
export function readDataFileHelpers(goSources: string[]): Map<string, string> {
  const helpers = new Map<string, string>();
  for (const text of goSources)
    for (const m of text.matchAll(/(\w+)\s*=\s*dataFileFn\("([^"]+)"\)/g))
      helpers.set(m[1] as string, `data/${m[2] as string}/`);
  return helpers;
}

/** What the test files define once for all tests: data-folder helpers, and what edits use (`EditHelpers`). */
export interface TestHelpers extends EditHelpers {
  dataFiles: Map<string, string>;
}

export function readTestHelpers(goSources: string[]): TestHelpers {
  const consts = new Map<string, string>([['SunsetExtension', 'x-sunset']]);
  const accessors = new Map<string, string>();
  const setters = new Map<string, string>();
  const deleters = new Map<string, string>();
  for (const text of goSources) {
    for (const m of text.matchAll(
      /^func (\w+)\(t \*testing\.T, s \*load\.SpecInfo, (\w+) [^)]*\) \{\n\s*t\.Helper\(\)\n\s*s(\.Spec\S*) = \2\n\}/gm,
    ))
      setters.set(m[1] as string, m[3] as string);
    for (const m of text.matchAll(
      /^func (\w+)\((\w+) \*openapi3\.\w+, (\w+) string\) \{\n\s*delete\(\2(\.\w+), \3\)\n\}/gm,
    ))
      deleters.set(m[1] as string, m[4] as string);
    for (const block of text.matchAll(/^const \(([\s\S]*?)^\)|^const (\w+ = .*)$/gm)) {
      for (const m of (block[1] ?? block[2] ?? '').matchAll(/(\w+)\s*=\s*(?:(\w+)\s*\+\s*)?"([^"]*)"/g))
        consts.set(m[1] as string, `${m[2] ? (consts.get(m[2]) ?? '') : ''}${m[3] as string}`);
    }
    for (const m of text.matchAll(/^func (\w+)\(s \*load\.SpecInfo\) \*openapi3\.\w+ \{\n\s*return s(\.Spec\S*)\n\}/gm))
      accessors.set(m[1] as string, m[2] as string);
  }
  return { dataFiles: readDataFileHelpers(goSources), consts, accessors, setters, deleters };
}

/** `../data/x.yaml` (relative to `checker/`) as a path from the repository root. */
const fromChecker = (path: string) => path.replace(/^\.\.\//, '');

/** Each top-level `func TestX(t *testing.T) {` with its body (gofmt closes it with `}` at column 0). */
export function testFunctions(go: string): Array<{ name: string; body: string }> {
  const result: Array<{ name: string; body: string }> = [];
  for (const m of go.matchAll(/^func (Test\w+)\(t \*testing\.T\) \{\n([\s\S]*?)^\}$/gm))
    result.push({ name: m[1] as string, body: m[2] as string });
  return result;
}

/** The file one loading call names, or undefined when only running the test could tell. */
function loadedFile(call: string, helpers: Map<string, string>, locals: Map<string, string>): string | undefined {
  let m = /^open\("([^"]+)"/.exec(call);
  if (m) return fromChecker(m[1] as string);
  m = /^load\.NewSpecInfo\(\w+, load\.NewSource\((.*?)\)(?:, load\.\w+\(\))*\)$/.exec(call);
  if (m) return loadedFile(`open(${m[1] as string})`, helpers, locals);
  m = /^open\((\w+)\)/.exec(call);
  if (m) return locals.has(m[1] as string) ? fromChecker(locals.get(m[1] as string) as string) : undefined;
  m = /^open\((\w+)\("([^"]+)"\)/.exec(call);
  if (m) return helpers.has(m[1] as string) ? `${helpers.get(m[1] as string)}${m[2] as string}` : undefined;
  m = /^l\(t,\s*(\d+)/.exec(call);
  if (m) return `data/openapi-test${m[1] as string}.yaml`;
  m = /^loadFrom\(t,\s*"([^"]+)",\s*(\d+)\)/.exec(call);
  if (m) return fromChecker(`${m[1] as string}spec${m[2] as string}.yaml`);
  return undefined;
}

/** A line that says an id must NOT be present. */
const NEGATIVE = /require\.(False|NotContains|NotEqual|Nil)\(|requireNoChange\(|assert\.False\(/;
/** The cases of one test file; `rules` gives each id's level. */
export function readCases(
  file: string,
  go: string,
  ids: Map<string, string>,
  rules: Map<string, Rule>,
  helpers: TestHelpers,
): { cases: Case[]; skipped: Skipped[] } {
  const cases: Case[] = [];
  const skipped: Skipped[] = [];
  for (const { name, body } of testFunctions(go)) {
    const skip = (reason: string) => void skipped.push({ test: name, file, reason });
    const pair = filePair(body, helpers);
    if (typeof pair === 'string') {
      skip(pair);
      continue;
    }
    if (/slices\.Contains\(\[\]string\{|require\.True\(t, \w+ \|\| /.test(body)) {
      skip('accepts any of several ids');
      continue;
    }
    const expectations = readExpectations(body, ids, rules);
    if (expectations.length === 0) {
      skip('asserts no change id or emptiness');
      continue;
    }
    const [base, revision, edits] = pair;
    const options = [...body.matchAll(/load\.(With\w+)\(\)/g)].map((m) => m[1] as string);
    for (const expect of expectations)
      cases.push({
        test: name,
        file,
        base,
        revision,
        ...(edits && { edits }),
        ...(options.length > 0 && { options }),
        expect,
      });
  }
  return { cases, skipped };
}

/**
 * A silent case whose pair another test finds breaking for the same check once a loader option is on
 * (`WithFlattenParams`: path-level parameters merged into each operation, which our diff always does) says
 * something about oasdiff's option, not about the change: it is set aside.
 */
export function setAsideOptionSilences(cases: Case[], rules: Map<string, Rule>): { kept: Case[]; skipped: Skipped[] } {
  const skipped: Skipped[] = [];
  const kept = cases.filter((c) => {
    if (c.expect.type !== 'check-silent') return true;
    const check = c.expect.check;
    const contradicted = cases.some(
      (other) =>
        other.options !== undefined &&
        other.expect.type === 'id' &&
        other.expect.level === 'ERR' &&
        rules.get(other.expect.id)?.check === check &&
        other.base === c.base &&
        other.revision === c.revision,
    );
    if (contradicted) skipped.push({ test: c.test, file: c.file, reason: 'silent only without a loader option' });
    return !contradicted;
  });
  return { kept, skipped };
}

type Pair = [string, string, Case['edits']];

/** The two files the one diff of a test compares, with the edits made to them, or why they cannot be told. */
function filePair(body: string, helpers: TestHelpers): Pair | string {
  const quick = [...body.matchAll(/\bd\(t,\s*[^,]+,\s*(\d+),\s*(\d+)\)/g)];
  const diffs = [...body.matchAll(/diff\.GetWithOperationsSourcesMap\([^,]+,\s*(\w+),\s*(\w+)\)/g)];
  if (quick.length + diffs.length === 0) return 'no diff of two specs';
  if (quick.length + diffs.length > 1) return 'several diffs';
  if (quick.length === 1) {
    const m = quick[0] as RegExpMatchArray;
    return [`data/openapi-test${m[1] as string}.yaml`, `data/openapi-test${m[2] as string}.yaml`, undefined];
  }
  const files = new Map<string, string | undefined>();
  // `file := "../data/x.yaml"` then `open(file)`.
  const strings = new Map(
    [...body.matchAll(/^\s*(\w+)\s*:=\s*"([^"]+)"\s*$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  for (const m of body.matchAll(/^\s*(\w+)(?:,\s*\w+)?\s*:?=\s*((?:open|l|loadFrom|load\.NewSpecInfo)\(.*)$/gm))
    files.set(m[1] as string, loadedFile(m[2] as string, helpers.dataFiles, strings));
  const match = diffs[0] as RegExpMatchArray;
  const [a, b] = [match[1] as string, match[2] as string];
  const base = files.get(a);
  const revision = files.get(b);
  if (!files.has(a) || !files.has(b)) return 'spec built outside the test';
  if (base === undefined || revision === undefined) return 'spec file named through a variable';
  // A loaded spec named anywhere but in its load and the diff is edited (or handed to a helper): replay or skip.
  const count = (re: RegExp) => body.match(re)?.length ?? 0;
  const edited = [...new Set([a, b])].some((name) => {
    const loads = count(new RegExp(`^\\s*${name}\\b[^\\n]*=\\s*(open|l|loadFrom|load\\.NewSpecInfo)\\(`, 'gm'));
    return count(new RegExp(`\\b${name}\\b`, 'g')) > loads + (a === b ? 2 : 1);
  });
  if (!edited) return [base, revision, undefined];
  const edits = readEdits(body, [a, b], helpers);
  if (typeof edits === 'string') return 'edits a spec in a way we cannot replay';
  const of = (name: string) => edits.filter((e) => e.spec === name);
  return [base, revision, { base: of(a), revision: of(b) }];
}

/** The index after the brace that closes the one at `open` (braces inside Go strings ignored). */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === '`') {
      // Skip the string; a backslash escapes the next character in a "..." string.
      for (i++; i < text.length && text[i] !== ch; i++) if (ch === '"' && text[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** `checker.ApiChange{ Id: checker.XId, Operation: "POST", Path: "/pets", ... }` literals, per rule id. */
function readAnchors(body: string, ids: Map<string, string>): Map<string, Anchor[]> {
  const anchors = new Map<string, Anchor[]>();
  for (const m of body.matchAll(/ApiChange\{|^\s*\{\s*$/gm)) {
    const literal = body.slice(m.index, closingBrace(body, m.index + m[0].indexOf('{')));
    const named = /\bId:\s*(?:checker\.(\w+Id)|"([a-z0-9-]+)")/.exec(literal);
    const id = named ? (named[1] ? ids.get(named[1]) : named[2]) : undefined;
    if (!id) continue;
    const field = (name: string) => new RegExp(`\\b${name}:\\s*"([^"]*)"`).exec(literal)?.[1];
    const list = anchors.get(id) ?? [];
    list.push({ operation: field('Operation'), path: field('Path') });
    anchors.set(id, list);
  }
  return anchors;
}

function readExpectations(body: string, ids: Map<string, string>, rules: Map<string, Rule>): Expectation[] {
  const anchors = readAnchors(body, ids);
  const expectations: Expectation[] = [];
  const seen = new Set<string>();
  for (const line of body.split('\n')) {
    if (NEGATIVE.test(line)) continue;
    // `checker.RequestBodyIfAddedId`, or the id's text where a line compares an id.
    const named = [...line.matchAll(/checker\.(\w+Id)\b/g)].map((m) => ids.get(m[1] as string));
    const quoted = /GetId\(\)|\bId:/.test(line) ? [...line.matchAll(/"([a-z0-9-]+)"/g)].map((m) => m[1]) : [];
    for (const id of [...named, ...quoted]) {
      const rule = id === undefined ? undefined : rules.get(id);
      if (!id || !rule || seen.has(id)) continue;
      seen.add(id);
      expectations.push({ type: 'id', id, level: rule.level, anchors: anchors.get(id) ?? [] });
    }
  }
  if (expectations.length > 0) return expectations;
  // `require.False(t, containsId(errs, checker.XId))` and nothing required: oasdiff says this is not breaking.
  for (const m of body.matchAll(
    /require\.False\(t, containsId\(\w+, checker\.(\w+Id)\)|requireNoChange\(t, \w+, checker\.(\w+Id)\)/g,
  )) {
    const id = ids.get((m[1] ?? m[2]) as string);
    if (id && rules.get(id)?.level === 'ERR') expectations.push({ type: 'not-id', id });
  }
  if (expectations.length > 0) return expectations;
  const empty = /require\.(Empty|Len)\(t,\s*(errs|changes)(,\s*0)?\)/.test(body);
  if (!empty) return [];
  const single = /singleCheckConfig\(checker\.(\w+Check)\b/.exec(body);
  if (single) return [{ type: 'check-silent', check: single[1] as string }];
  if (/allChecksConfig\(|GetAllChecks\(\)/.test(body))
    return [{ type: 'nothing', untilInfo: /UntilLevel\([^)]*checker\.INFO\)/.test(body) }];
  return [];
}
