import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CHECKS } from '../src';

/** The README table "Where we follow oasdiff and where we keep our reading", row by row. */
function decisionRows(): Array<{ family: string; oasdiff: string; ours: string; checks: string[]; decision: string }> {
  const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  const start = readme.indexOf('### Where we follow oasdiff and where we keep our reading');
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
  const table = lines.slice(first + 2, end); // without the header and separator rows
  return table.map((line) => {
    // Cells split at pipes that are not escaped (`string \| integer`).
    const cells = line
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((cell) => cell.trim());
    const [family = '', oasdiff = '', ours = '', checks = '', decision = ''] = cells;
    return {
      family,
      oasdiff,
      ours,
      checks: checks === '-' ? [] : [...checks.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string),
      decision,
    };
  });
}

describe('the README table of readings against oasdiff', () => {
  const rows = decisionRows();

  it('has a row per family, each with a reason, a decision and an oasdiff level', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const row of rows) {
      expect(['follow', 'keep']).toContain(row.decision);
      expect(row.oasdiff).toMatch(/ERR|WARN|INFO/);
      expect(['breaking', 'potentially-breaking', 'not listed']).toContain(row.ours);
    }
  });

  it.each(decisionRows().map((row) => [row.family, row] as const))(
    '%s: its checks have the group it names',
    (_, row) => {
      if (row.ours === 'not listed') return expect(row.checks).toEqual([]);
      expect(row.checks.length).toBeGreaterThan(0);
      for (const id of row.checks) {
        expect(Object.keys(CHECKS)).toContain(id);
        expect([id, CHECKS[id as keyof typeof CHECKS].group]).toEqual([id, row.ours]);
      }
    },
  );

  it('follows oasdiff where it says so: an ERR family we follow is breaking, an INFO one is not', () => {
    for (const row of rows.filter((r) => r.decision === 'follow')) {
      if (row.oasdiff === 'ERR') expect([row.family, row.ours]).toEqual([row.family, 'breaking']);
      if (row.oasdiff === 'INFO') expect([row.family, row.ours]).not.toEqual([row.family, 'breaking']);
    }
  });
});
