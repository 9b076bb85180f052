import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../src';
import { document, int, obj, ok, query } from './openapi-fixtures';

let dir: string;
let oldFile: string;
let newFile: string;

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
  '/api/v1/health': { get: { responses: { '200': { description: 'OK' } } } },
  '/api/v1/scans': {
    get: { parameters: [query('limit', int('int64'))], responses: { '200': ok(obj({ id: int('int64') })) } },
  },
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-changelog-sarif-'));
  [oldFile, newFile] = [path.join(dir, 'v1.json'), path.join(dir, 'v2.json')];
  await writeFile(oldFile, JSON.stringify(v1));
  await writeFile(newFile, JSON.stringify(v2, null, 2));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('--format sarif', () => {
  it('writes a SARIF 2.1.0 log: one result per change, error for breaking, warning for potentially breaking, at the route', async () => {
    const result = await runCli([oldFile, newFile, '--format', 'sarif']);
    expect(result.code).toBe(0);
    const log = JSON.parse(result.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toContain('sarif-2.1.0');
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('api-changelog');
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual([
      'endpoint-removed',
      'integer-format-widened-to-int64',
      'response-property-removed',
    ]);
    const routeLine =
      (await readFile(newFile, 'utf8')).split('\n').findIndex((line) => line.includes('"/api/v1/scans"')) + 1;
    expect(routeLine).toBeGreaterThan(1);
    expect(
      run.results.map(
        (r: {
          ruleId: string;
          level: string;
          message: { text: string };
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
        }) => ({
          ruleId: r.ruleId,
          level: r.level,
          text: r.message.text,
          uri: r.locations[0].physicalLocation.artifactLocation.uri,
          line: r.locations[0].physicalLocation.region.startLine,
        }),
      ),
    ).toEqual([
      {
        ruleId: 'response-property-removed',
        level: 'error',
        text: 'GET /api/v1/scans: optional response property `branch` removed for status 200',
        uri: newFile,
        line: routeLine,
      },
      {
        ruleId: 'endpoint-removed',
        level: 'error',
        text: 'DELETE /api/v1/scans: endpoint removed',
        uri: newFile,
        line: routeLine,
      },
      {
        ruleId: 'integer-format-widened-to-int64',
        level: 'warning',
        text: 'GET /api/v1/scans: the integer format of query parameter `limit` changed from `uint32` to `int64`',
        uri: newFile,
        line: routeLine,
      },
    ]);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
  });

  it('keeps the --fail-on exit codes', async () => {
    expect((await runCli([oldFile, newFile, '--format', 'sarif', '--fail-on', 'breaking'])).code).toBe(1);
    expect((await runCli([oldFile, oldFile, '--format', 'sarif', '--fail-on', 'potentially-breaking'])).code).toBe(0);
  });

  it('--fail-on potentially-breaking fails on a potentially breaking change alone', async () => {
    const only = path.join(dir, 'v1-int64.json');
    const widened = structuredClone(v1);
    widened.paths['/api/v1/scans'].get.parameters[0].schema.format = 'int64';
    await writeFile(only, JSON.stringify(widened));
    expect((await runCli([oldFile, only, '--fail-on', 'breaking'])).code).toBe(0);
    const result = await runCli([oldFile, only, '--fail-on', 'potentially-breaking']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('1 potentially-breaking change(s) found');
  });
});
