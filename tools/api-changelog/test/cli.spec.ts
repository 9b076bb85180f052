import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../src';
import { WORKSPACE_ROOT } from '../src/export-openapi';
import { document, int, obj, ok, query } from './openapi-fixtures';

const run = promisify(execFile);
let dir: string;
let oldFile: string;
let newFile: string;
let sameFile: string;

const v1 = document({
  '/api/v1/scans': {
    get: {
      parameters: [query('limit', int('uint32'))],
      responses: { '200': ok(obj({ id: int('int64'), branch: { type: 'string' } })) },
    },
    delete: { responses: { '204': { description: 'Deleted' } } },
  },
});
const v2 = document({
  '/api/v1/scans': {
    get: { parameters: [query('limit', int('int64'))], responses: { '200': ok(obj({ id: int('int64') })) } },
  },
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-changelog-cli-'));
  [oldFile, newFile, sameFile] = [path.join(dir, 'v1.json'), path.join(dir, 'v2.yaml'), path.join(dir, 'v1-copy.json')];
  await writeFile(oldFile, JSON.stringify(v1));
  // YAML is a superset of JSON: the loader takes the YAML path for a .yaml name.
  await writeFile(newFile, `# v2\n${JSON.stringify(v2, null, 1)}`);
  await writeFile(sameFile, JSON.stringify(v1));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const expected = [
  {
    group: 'breaking',
    kind: 'Removed',
    method: 'GET',
    path: '/api/v1/scans',
    description: 'optional response property `branch` removed for status 200',
  },
  { group: 'breaking', kind: 'Removed', method: 'DELETE', path: '/api/v1/scans', description: 'endpoint removed' },
  {
    group: 'potentially-breaking',
    kind: 'Changed',
    method: 'GET',
    path: '/api/v1/scans',
    description: 'the integer format of query parameter `limit` changed from `uint32` to `int64`',
  },
];

describe('api-changelog CLI', () => {
  it('prints JSON with exactly group, kind, method, path and description', async () => {
    const result = await runCli([oldFile, newFile, '--format', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ changes: expected });
  });

  it('prints Markdown by default, titled with both versions', async () => {
    const result = await runCli([oldFile, newFile]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        '# API changes from Code Analysis API 1.0 to Code Analysis API 1.0',
        '',
        '## Breaking changes (2)',
        '',
        '### Removed',
        '',
        '- `GET /api/v1/scans`: optional response property `branch` removed for status 200',
        '- `DELETE /api/v1/scans`: endpoint removed',
        '',
        '## Potentially breaking changes (1)',
        '',
        '### Changed',
        '',
        '- `GET /api/v1/scans`: the integer format of query parameter `limit` changed from `uint32` to `int64`',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 with --fail-on breaking when a breaking change is present, 0 when none', async () => {
    expect(await runCli([oldFile, newFile, '--fail-on', 'breaking'])).toMatchObject({
      code: 1,
      stderr: 'api-changelog: 2 breaking change(s) found\n',
    });
    expect(await runCli([oldFile, sameFile, '--fail-on=breaking'])).toMatchObject({ code: 0, stderr: '' });
    expect((await runCli([oldFile, sameFile])).stdout).toContain('No breaking or potentially breaking changes.');
  });

  it('counts both groups with --fail-on potentially-breaking', async () => {
    expect(await runCli([oldFile, newFile, '--fail-on', 'potentially-breaking'])).toMatchObject({
      code: 1,
      stderr: 'api-changelog: 3 potentially-breaking change(s) found\n',
    });
  });

  // The root package.json runs the CLI with `node -r @swc-node/register`; this checks that wiring for real.
  it('runs as `npm run api-changelog` does, with its exit codes', async () => {
    const cli = path.join(WORKSPACE_ROOT, 'tools/api-changelog/src/cli.ts');
    const { stdout } = await run(
      process.execPath,
      ['-r', '@swc-node/register', cli, oldFile, newFile, '--format', 'json'],
      { cwd: WORKSPACE_ROOT },
    );
    expect(JSON.parse(stdout)).toEqual({ changes: expected });
    const failed = await run(
      process.execPath,
      ['-r', '@swc-node/register', cli, oldFile, newFile, '--fail-on', 'breaking'],
      { cwd: WORKSPACE_ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: 'api-changelog: 2 breaking change(s) found\n' });
    const bad = await run(
      process.execPath,
      ['-r', '@swc-node/register', cli, oldFile, path.join(dir, 'missing.json')],
      { cwd: WORKSPACE_ROOT },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('missing.json: cannot read the file (no such file)'),
    });
  });
});
