import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/scratch-repo';

const JEST = join(ROOT, 'node_modules/jest/bin/jest.js');

/** `tools/launcher/test-kinds.mjs` is ESM: read its reporter arguments through a child, as the launcher uses them. */
function resultsReporters(): string[] {
  const script = `import(${JSON.stringify(join(ROOT, 'tools/launcher/test-kinds.mjs'))}).then((m) => process.stdout.write(JSON.stringify(m.RESULTS_REPORTERS)))`;
  return JSON.parse(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout);
}

describe("npm test's results files", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'jest-results-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are written, and count the failure, when a failed test throws a circular error object', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(
      join(dir, 'circular.test.js'),
      [
        "test('throws a circular error', () => { const e = new Error('boom'); e.self = e; e.holder = { e }; throw e; });",
        "test('passes', () => expect(1 + 1).toBe(2));",
      ].join('\n'),
    );
    const resultsFile = join(dir, 'results.json');
    const run = spawnSync(process.execPath, [JEST, '--rootDir', dir, '--ci', ...resultsReporters()], {
      cwd: dir,
      env: { ...process.env, JEST_RESULTS_FILE: resultsFile },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('Converting circular structure');
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    expect({ passed: results.numPassedTests, failed: results.numFailedTests }).toEqual({ passed: 1, failed: 1 });
    expect(results.testResults[0].assertionResults.map((a: { status: string }) => a.status)).toEqual([
      'failed',
      'passed',
    ]);
  });

  it('a project target without rate- or kill-sensitive files runs no second, empty, serial pass', () => {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'tools/launcher/jest-target.mjs'), 'libs/platform/persistence', 'test-int'],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: 'test' }, encoding: 'utf8', timeout: 240_000 },
    );
    const output = run.stdout + run.stderr;
    expect(run.status).toBe(0);
    expect(output.match(/^Tests: /gm)).toHaveLength(1);
    expect(output).not.toMatch(/No tests found/);
  });
});
