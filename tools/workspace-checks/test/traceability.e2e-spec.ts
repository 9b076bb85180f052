import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/scratch-repo';

interface Row {
  id: string;
  requirement: string;
  code: string[];
  tests: { file: string; title: string }[];
  status: string;
}

/** The rows of docs/traceability.md: `| ID | requirement | code | test | status |`. */
function rows(): Row[] {
  const text = readFileSync(join(ROOT, 'docs/traceability.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\| [A-Z]\d+ \|/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      const testCell = cells[3] ?? '';
      return {
        id: cells[0].replace('| ', ''),
        requirement: cells[1] ?? '',
        code: [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]),
        tests: [...testCell.matchAll(/`([^`]+)` › "([^"]+)"/g)].map((match) => ({ file: match[1], title: match[2] })),
        status: (cells[4] ?? '').replace(/\s*\|\s*$/, '').trim(),
      };
    });
}

/** The HTTP statuses the four APIs answer: other three-digit numbers in a requirement are limits, not statuses. */
const STATUSES = /\b(200|201|204|302|400|401|403|404|405|409|413|415|422|429|431|500|503)\b/g;

/**
 * What a requirement says a client sees: its statuses and wire codes (`area/what`, `UPPER_SNAKE`, `CamelCase`,
 * or a `snake_case` code right after a status, as field names are snake_case too).
 */
export function answersNamed(requirement: string): string[] {
  const named = new Set([...requirement.matchAll(STATUSES)].map((match) => match[1]));
  for (const [, token] of requirement.matchAll(/`([^`]+)`/g))
    if (/^[a-z]+(-[a-z]+)*\/[a-z]+(-[a-z]+)*$|^[A-Z][A-Z_]{3,}$|^(?:[A-Z][a-z]+){2,}$/.test(token)) named.add(token);
  for (const [, code] of requirement.matchAll(/\b\d{3} `([a-z]+(?:_[a-z]+)+)`/g)) named.add(code);
  return [...named];
}

/** A test's text: from its title to the next test or describe block (it.each tables come before the title). */
export function testText(source: string, title: string): string {
  const start = source.indexOf(title);
  if (start < 0) return '';
  const rest = source.slice(start + title.length);
  const next = /\n\s*(?:it|test)(?:\.each[^(]*)?\(|\n\s*describe(?:\.each[^(]*)?\(/.exec(rest);
  return title + (next ? rest.slice(0, next.index) : rest);
}

describe('docs/traceability.md', () => {
  const matrix = rows();

  it('has a row for each area of the three source documents', () => {
    expect(matrix.length).toBeGreaterThanOrEqual(100);
    expect(new Set(matrix.map((row) => row.id[0]))).toEqual(new Set(['M', 'C', 'R', 'B', 'X']));
    expect(new Set(matrix.map((row) => row.id)).size).toBe(matrix.length);
  });

  it('names, for every row, code that exists and a test that exists in its file', () => {
    const missing: string[] = [];
    for (const row of matrix) {
      if (row.status !== 'covered') missing.push(`${row.id}: status ${row.status}`);
      if (row.tests.length === 0) missing.push(`${row.id}: no test`);
      for (const code of row.code) if (!existsSync(join(ROOT, code))) missing.push(`${row.id}: no ${code}`);
      for (const test of row.tests) {
        const file = join(ROOT, test.file);
        if (!existsSync(file)) missing.push(`${row.id}: no ${test.file}`);
        else if (!readFileSync(file, 'utf8').includes(test.title))
          missing.push(`${row.id}: no test "${test.title}" in ${test.file}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cites, for a requirement that names a status or a code, tests that name one of them', () => {
    const weak: string[] = [];
    let checked = 0;
    for (const row of matrix) {
      const named = answersNamed(row.requirement);
      if (named.length === 0) continue;
      for (const test of row.tests) {
        const file = join(ROOT, test.file);
        if (!existsSync(file)) continue;
        checked += 1;
        const text = testText(readFileSync(file, 'utf8'), test.title);
        if (!named.some((answer) => text.includes(answer)))
          weak.push(`${row.id}: "${test.title}" names none of ${named.join(', ')}`);
      }
    }
    expect(weak).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('reads the statuses and codes a requirement names, and a test up to the next one', () => {
    expect(answersNamed('Unknown platform: 400 `push-device/invalid-body`').sort()).toEqual(
      ['400', 'push-device/invalid-body'].sort(),
    );
    expect(answersNamed('`take` 1–100, default 50, `consumer_selector` at most 255')).toEqual([]);
    expect(answersNamed('past them 429 `RequestTooFrequently`; 400 `invalid_uri`').sort()).toEqual(
      ['429', 'RequestTooFrequently', '400', 'invalid_uri'].sort(),
    );
    expect(answersNamed('with `INVALID_ARGUMENT`')).toEqual(['INVALID_ARGUMENT']);
    const source =
      "it('first', () => {\n  expect(a).toBe(403);\n});\n  it('second', () => {\n  expect(b).toBe(404);\n});";
    expect(testText(source, 'first')).toContain('403');
    expect(testText(source, 'first')).not.toContain('404');
    expect(testText(source, 'missing')).toBe('');
  });
});
