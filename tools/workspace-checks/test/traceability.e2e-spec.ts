import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/scratch-repo';

interface Row {
  id: string;
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
        code: [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]),
        tests: [...testCell.matchAll(/`([^`]+)` › "([^"]+)"/g)].map((match) => ({ file: match[1], title: match[2] })),
        status: (cells[4] ?? '').replace(/\s*\|\s*$/, '').trim(),
      };
    });
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
});
