import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NX, nxEnv, projectGraph, ROOT, scratchRepo } from './support/scratch-repo';

const KINDS: Record<string, RegExp> = {
  test: /(?<!-)\.spec\.ts$/,
  'test-int': /\.int-spec\.ts$/,
  'test-e2e': /\.e2e-spec\.ts$/,
};

/** Test files under a folder, by name (git's view: tracked and untracked, not ignored). */
function testFiles(cwd: string, folder: string): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', folder], {
    cwd,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /spec\.ts$/.test(file) && existsSync(join(cwd, file)));
}

describe('Nx test targets', () => {
  const graph = projectGraph();
  const projects = Object.entries(graph);

  it('gives each project exactly the targets it has files for, none on the deprecated Jest executor', () => {
    for (const [name, { data }] of projects) {
      const files = testFiles(ROOT, data.root);
      for (const [target, pattern] of Object.entries(KINDS)) {
        const has = files.some((file) => pattern.test(file));
        expect({ name, target, exists: target in data.targets }).toEqual({ name, target, exists: has });
        if (has)
          expect(data.targets[target].options?.command).toBe(
            `node tools/launcher/jest-target.mjs ${data.root} ${target}`,
          );
      }
      for (const target of Object.values(data.targets)) expect(target.executor).not.toBe('@nx/jest:jest');
    }
  });

  it('gives every project a typecheck target over its own sources and tests', () => {
    for (const [name, { data }] of projects) {
      expect({ name, command: data.targets.typecheck?.options?.command }).toEqual({
        name,
        command: `tsc -p ${data.root}/tsconfig.json --noEmit --types node,jest`,
      });
    }
  });

  it('runs, across the three targets, exactly the files npm test runs', () => {
    const byTargets = projects.flatMap(([, { data }]) => testFiles(ROOT, data.root)).sort();
    const listed = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/jest/bin/jest.js'), '--listTests', '--config', join(ROOT, 'jest.config.cjs')],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const byNpmTest = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((file) => relative(ROOT, file))
      .sort();
    expect(byNpmTest.length).toBeGreaterThan(50);
    expect(byTargets).toEqual(byNpmTest);
  });
});

describe('nx affected', () => {
  let scratch: ReturnType<typeof scratchRepo>;
  beforeAll(() => (scratch = scratchRepo()));
  afterAll(() => scratch?.remove());

  it('after an edit in libs/rum lists rum, what imports it, and never management-api', () => {
    appendFileSync(join(scratch.dir, 'libs/rum/src/index.ts'), '\n// an edit\n');
    const affected = execFileSync(process.execPath, [NX, 'show', 'projects', '--affected', '--base=HEAD', '--json'], {
      cwd: scratch.dir,
      env: nxEnv,
      encoding: 'utf8',
    });
    const importers = Object.entries(projectGraph(scratch.dir))
      .filter(
        ([name, { data }]) =>
          name !== 'rum' &&
          testFiles(scratch.dir, data.root)
            .concat(sourceFiles(scratch.dir, data.root))
            .some((file) => /from\s+'@acme\/rum'/.test(readFileSync(join(scratch.dir, file), 'utf8'))),
      )
      .map(([name]) => name);
    const listed: string[] = JSON.parse(affected);
    expect(listed).toEqual(expect.arrayContaining(['rum', 'rum-ingestion']));
    expect(listed).not.toContain('management-api');
    expect(listed.sort()).toEqual(['rum', ...importers].sort());
  }, 120000);
});

function sourceFiles(cwd: string, folder: string): string[] {
  return execFileSync('git', ['ls-files', '--', folder], { cwd, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.ts'));
}
