/**
 * Runs our change log over oasdiff's checker test pairs and reports, per family, the share of oasdiff's breaking
 * (ERR) cases we report as breaking and the share of its non-breaking (INFO, or "nothing") cases we report as
 * breaking; WARN cases (oasdiff's "potentially breaking") are shown apart. oasdiff's files are read from the path
 * given (the `fetch` tool's bare mirror, or a checkout) and never copied into this repository.
 *
 *   node -r @swc-node/register tools/api-changelog/measure/oasdiff-suite.ts <oasdiff git dir or checkout> [--rev R]
 *     [--list misses|false|warn|all] [--json FILE]
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { diffDocuments } from '../src/diff';
import { parseOpenApi } from '../src/load';
import { ClassifiedChange, OpenApiDocument } from '../src/model';
import { parse as parseYaml } from 'yaml';
import {
  Case,
  readCases,
  readIdConstants,
  readRules,
  readTestHelpers,
  Rule,
  setAsideOptionSilences,
  Skipped,
} from './oasdiff-cases';
import { applyEdits, SpecEdit } from './oasdiff-edits';
import { Family, familyOfCase, relevantToCase } from './oasdiff-map';
import { checkerFiles, OasdiffSource, openOasdiff, readText } from './oasdiff-source';

export type Verdict = 'breaking' | 'potentially-breaking' | 'not reported' | 'load error';

export interface Outcome extends Case {
  family: Family;
  /** ERR, WARN or INFO; `INFO` for the empty-result cases. */
  level: 'ERR' | 'WARN' | 'INFO';
  verdict: Verdict;
  /** Our relevant changes, `check: description`. */
  ours: string[];
}

export function readSuite(source: OasdiffSource): { cases: Case[]; skipped: Skipped[]; rules: Map<string, Rule> } {
  const ids = readIdConstants(checkerFiles(source, false).map((f) => readText(source, `checker/${f}`)));
  const rules = readRules(readText(source, 'checker/rules.go'), ids);
  const tests = checkerFiles(source, true);
  const texts = tests.map((f) => readText(source, `checker/${f}`));
  const helpers = readTestHelpers(texts);
  const cases: Case[] = [];
  const skipped: Skipped[] = [];
  tests.forEach((file, i) => {
    const read = readCases(file, texts[i] as string, ids, rules, helpers);
    cases.push(...read.cases);
    skipped.push(...read.skipped);
  });
  const { kept, skipped: contradicted } = setAsideOptionSilences(cases, rules);
  return { cases: kept, skipped: [...skipped, ...contradicted], rules };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/**
 * Some fixtures are not valid OpenAPI 3.0 (an operation without `responses`, which kin-openapi lets through), and
 * our loader refuses those by design. To measure the diff and not the loader, such an operation gets
 * `responses: {}`; `repaired` counts the files this happened to.
 */
export async function loadFixture(file: string, repaired: Set<string>): Promise<OpenApiDocument> {
  const text = readFileSync(file, 'utf8');
  const doc = parseYaml(text, { maxAliasCount: 1000 }) as Loose;
  for (const item of Object.values((doc?.['paths'] ?? {}) as Loose)) {
    for (const method of METHODS) {
      const op = (item as Loose)?.[method] as Loose | undefined;
      if (op && typeof op === 'object' && (op['responses'] === undefined || op['responses'] === null)) {
        op['responses'] = {};
        repaired.add(file);
      }
    }
  }
  return parseOpenApi(repaired.has(file) ? JSON.stringify(doc) : text, file);
}

export async function runSuite(
  source: OasdiffSource,
): Promise<{ outcomes: Outcome[]; skipped: Skipped[]; repaired: number }> {
  const { cases, skipped, rules } = readSuite(source);
  const repaired = new Set<string>();
  const diffs = new Map<string, ClassifiedChange[] | Error>();
  const outcomes: Outcome[] = [];
  const load = async (file: string, edits: SpecEdit[] = []) => {
    const doc = await loadFixture(path.join(source.root, file), repaired);
    if (!applyEdits(doc as never, edits)) throw new Error(`${file}: an edit names nothing in our copy`);
    return doc;
  };
  for (const c of cases) {
    // Edited specs are fresh copies per test; plain pairs are diffed once.
    const key = c.edits ? `${c.file}:${c.test}` : `${c.base}\n${c.revision}`;
    if (!diffs.has(key)) {
      try {
        const [a, b] = await Promise.all([load(c.base, c.edits?.base), load(c.revision, c.edits?.revision)]);
        diffs.set(key, diffDocuments(a, b));
      } catch (error) {
        diffs.set(key, error as Error);
      }
    }
    const changes = diffs.get(key) as ClassifiedChange[] | Error;
    // Cases that say "not breaking" (an empty result, an ERR id that must be absent) count with INFO.
    const level = c.expect.type === 'id' ? c.expect.level : 'INFO';
    const family = familyOfCase(c, rules);
    if (changes instanceof Error) {
      outcomes.push({ ...c, family, level, verdict: 'load error', ours: [changes.message] });
      continue;
    }
    const relevant = relevantToCase(c, rules, changes);
    const verdict: Verdict = relevant.some((x) => x.group === 'breaking')
      ? 'breaking'
      : relevant.length > 0
        ? 'potentially-breaking'
        : 'not reported';
    outcomes.push({ ...c, family, level, verdict, ours: relevant.map((x) => `${x.check}: ${x.description}`) });
  }
  return { outcomes, skipped, repaired: repaired.size };
}

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);

export interface Figures {
  breaking: number;
  found: number;
  nonBreaking: number;
  falseBreaking: number;
  warn: number;
  warnBreaking: number;
}

export function figures(outcomes: Outcome[]): Figures {
  const err = outcomes.filter((o) => o.level === 'ERR');
  const info = outcomes.filter((o) => o.level === 'INFO');
  const warn = outcomes.filter((o) => o.level === 'WARN');
  const breaking = (list: Outcome[]) => list.filter((o) => o.verdict === 'breaking').length;
  return {
    breaking: err.length,
    found: breaking(err),
    nonBreaking: info.length,
    falseBreaking: breaking(info),
    warn: warn.length,
    warnBreaking: breaking(warn),
  };
}

function report(source: OasdiffSource, outcomes: Outcome[], skipped: Skipped[], repaired: number): string {
  const errors = outcomes.filter((o) => o.verdict === 'load error').length;
  const replayed = outcomes.filter((o) => o.edits !== undefined).length;
  const lines = [
    `oasdiff ${source.commit}: ${outcomes.length} cases (${replayed} with Go edits replayed, ${errors} not loadable), ` +
      `${skipped.length} tests skipped, ${repaired} fixtures given the missing \`responses: {}\``,
  ];
  lines.push(
    '',
    '| family | ERR found as breaking | INFO called breaking | WARN called breaking |',
    '|---|---|---|---|',
  );
  const families: Array<[string, (o: Outcome) => boolean]> = [
    ['core', (o) => o.family === 'core'],
    ['openapi-3.1', (o) => o.family === 'openapi-3.1'],
    ['**core + 3.1**', (o) => o.family === 'core' || o.family === 'openapi-3.1'],
    ['policy (not measured)', (o) => o.family === 'policy'],
    ['extension (not measured)', (o) => o.family === 'extension'],
  ];
  for (const [name, keep] of families) {
    const f = figures(outcomes.filter(keep));
    lines.push(
      `| ${name} | ${f.found}/${f.breaking} (${pct(f.found, f.breaking)}) | ${f.falseBreaking}/${f.nonBreaking} (${pct(f.falseBreaking, f.nonBreaking)}) | ${f.warnBreaking}/${f.warn} |`,
    );
  }
  const reasons = new Map<string, number>();
  for (const s of skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  lines.push('', `skipped tests: ${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')}`);
  return lines.join('\n');
}

function listing(outcomes: Outcome[], which: string): string {
  const measured = outcomes.filter((o) => o.family === 'core' || o.family === 'openapi-3.1');
  const pick =
    which === 'misses'
      ? measured.filter((o) => o.level === 'ERR' && o.verdict !== 'breaking')
      : which === 'false'
        ? measured.filter((o) => o.level === 'INFO' && o.verdict === 'breaking')
        : which === 'warn'
          ? measured.filter((o) => o.level === 'WARN')
          : measured;
  return pick
    .map((o) => {
      const expect =
        o.expect.type === 'id'
          ? o.expect.id
          : o.expect.type === 'not-id'
            ? `not ${o.expect.id}`
            : o.expect.type === 'check-silent'
              ? o.expect.check
              : 'nothing';
      return `- ${o.level} ${expect} [${o.verdict}] ${o.file}:${o.test} ${o.base} -> ${o.revision}\n    ${o.ours.join('\n    ') || '(nothing of ours)'}`;
    })
    .join('\n');
}

async function main(argv: string[]): Promise<void> {
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const location = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!location) throw new Error('usage: oasdiff-suite.ts <oasdiff git dir or checkout> [--rev R] [--list ...]');
  const source = openOasdiff(location, option('--rev'));
  const { outcomes, skipped, repaired } = await runSuite(source).finally(() => {
    if (source.temporary) rmSync(source.root, { recursive: true, force: true });
  });
  console.log(report(source, outcomes, skipped, repaired));
  const list = option('--list');
  if (list) console.log(`\n${listing(outcomes, list)}`);
  const json = option('--json');
  if (json) writeFileSync(json, JSON.stringify({ commit: source.commit, outcomes, skipped }, null, 1));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 2;
  });
}
