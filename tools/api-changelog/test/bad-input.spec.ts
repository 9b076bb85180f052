import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadOpenApi, runCli } from '../src';
import { document, obj, ok } from './openapi-fixtures';

let dir: string;
const file = async (name: string, content: string | object) => {
  const target = path.join(dir, name);
  await writeFile(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
};
const valid = document({ '/api/v1/scans': { get: { responses: { '200': ok(obj({ id: { type: 'string' } })) } } } });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-changelog-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('bad input: a clear message naming the file, exit code 2', () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['a missing file', async () => path.join(dir, 'nope.json'), /nope\.json: cannot read the file \(no such file\)/],
    [
      'a directory',
      async () => (await mkdir(path.join(dir, 'folder'), { recursive: true }), path.join(dir, 'folder')),
      /folder: cannot read the file \(is a directory\)/,
    ],
    ['an empty file', () => file('empty.yaml', '  \n'), /empty\.yaml: the file is empty/],
    ['broken JSON', () => file('broken.json', '{"openapi": "3.0.3",'), /broken\.json: not valid JSON/],
    ['broken YAML', () => file('broken.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n'), /broken\.yaml: not valid YAML/],
    ['a scalar', () => file('scalar.yaml', '42\n'), /not an OpenAPI document \(the top level must be an object\)/],
    [
      'JSON without a version',
      () => file('plain.json', { hello: 'world' }),
      /not an OpenAPI document \(no "openapi" version field\)/,
    ],
    [
      'Swagger 2.0',
      () => file('swagger.json', { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }),
      /Swagger 2\.0 documents are not supported; convert it to OpenAPI 3\.0 or 3\.1 first/,
    ],
    [
      'OpenAPI 4',
      () => file('v4.json', { ...valid, openapi: '4.0.0' }),
      /unsupported OpenAPI version "4\.0\.0" \(expected 3\.0\.x or 3\.1\.x\)/,
    ],
    ['a numeric version', () => file('num.json', { ...valid, openapi: 3 }), /unsupported OpenAPI version 3/],
    ['no info', () => file('noinfo.json', { openapi: '3.0.3', paths: {} }), /invalid OpenAPI document at #\/info/],
    [
      '3.0 without paths',
      () => file('nopaths.json', { openapi: '3.0.3', info: { title: 'x', version: '1' } }),
      /at #\/paths: required in OpenAPI 3\.0/,
    ],
    [
      'a path without a slash',
      () => file('slash.json', { ...valid, paths: { scans: {} } }),
      /at #\/paths\/scans: a path must start with "\/"/,
    ],
    [
      'an operation without responses',
      () => file('noresp.json', { ...valid, paths: { '/a': { get: {} } } }),
      /at #\/paths\/~1a\/get\/responses: required in OpenAPI 3\.0/,
    ],
    [
      'a parameter without "in"',
      () => file('param.json', { ...valid, paths: { '/a': { get: { parameters: [{ name: 'x' }], responses: {} } } } }),
      /at #\/paths\/~1a\/get\/parameters\/0: a parameter needs/,
    ],
    [
      'an unresolved local $ref',
      () =>
        file('ref.json', {
          ...valid,
          paths: { '/a': { get: { responses: { '200': ok({ $ref: '#/components/schemas/Missing' }) } } } },
        }),
      /ref\.json: unresolved \$ref \(.*#\/components\/schemas\/Missing/,
    ],
    [
      'a $ref to a missing file',
      () =>
        file(
          'extref.yaml',
          `openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: './responses/missing.yaml'}\n`,
        ),
      /extref\.yaml: unresolved \$ref \(.*missing\.yaml/,
    ],
  ];

  it.each(cases)('%s', async (_name, make, message) => {
    const bad = await make();
    const good = await file('good.json', valid);
    for (const args of [
      [good, bad],
      [bad, good],
    ]) {
      const result = await runCli(args);
      expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(message) });
      expect(result.stderr).toMatch(/^api-changelog: /);
    }
  });

  it.each([
    [[], /expected two documents, got 0/],
    [['a.json'], /expected two documents, got 1/],
    [['a.json', 'b.json', '--format', 'html'], /--format must be markdown, json or sarif \(got "html"\)/],
    [['a.json', 'b.json', '--fail-on', 'minor'], /--fail-on must be breaking or potentially-breaking/],
    [['a.json', 'b.json', '--colour'], /unknown option --colour/],
  ])('bad usage %j', async (args, message) => {
    const result = await runCli(args as string[]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: api-changelog OLD NEW');
  });
});

describe('input that is fine', () => {
  it('follows $refs into relative YAML files and through recursive schemas', async () => {
    await mkdir(path.join(dir, 'schemas'), { recursive: true });
    await file(
      'schemas/scan.yaml',
      'type: object\nproperties:\n  id: {type: integer, format: uint64}\n  parent: {$ref: "#"}\n',
    );
    const root = await file(
      'api.yaml',
      `openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths:\n  /scans:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: './schemas/scan.yaml'}\n`,
    );
    const doc = await loadOpenApi(root);
    const schema = (
      doc.paths['/scans'] as never as {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
          };
        };
      }
    ).get.responses['200'].content['application/json'].schema;
    expect(schema.properties['id']).toEqual({ type: 'integer', format: 'uint64' });
    expect(schema.properties['parent']).toBe(schema);
  });

  it('reads a YAML file that opens with a flow mapping', async () => {
    const flow = await file('flow.yaml', '{openapi: 3.0.3, info: {title: x, version: "1"}, paths: {}}\n');
    await expect(loadOpenApi(flow)).resolves.toMatchObject({ openapi: '3.0.3', paths: {} });
  });

  it('accepts a 3.1 document without paths (webhooks only)', async () => {
    await expect(
      loadOpenApi(await file('webhooks.json', { openapi: '3.1.0', info: { title: 'x', version: '1' }, webhooks: {} })),
    ).resolves.toMatchObject({ openapi: '3.1.0' });
  });
});

describe('arbitrary input never crashes the CLI', () => {
  const good = () => file('good.json', valid);
  const noise = fc.oneof(
    fc.string(),
    fc.json(),
    fc.record({
      openapi: fc.oneof(fc.constantFrom('3.0.3', '3.1.0'), fc.string()),
      info: fc.anything(),
      paths: fc.anything(),
    }),
    fc.record({
      openapi: fc.constant('3.0.3'),
      info: fc.constant({ title: 't', version: '1' }),
      paths: fc.dictionary(
        fc.constantFrom('/a', '/b/{id}', 'c'),
        fc.dictionary(fc.constantFrom('get', 'post', 'parameters'), fc.anything()),
      ),
    }),
  );

  it('answers 0, 1 or 2 with a message, never an exception', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(noise, async (content) => {
        const bad = await file(`fuzz-${n++}.json`, typeof content === 'string' ? content : JSON.stringify(content));
        for (const args of [
          [await good(), bad, '--fail-on', 'breaking'],
          [bad, await good()],
        ]) {
          const result = await runCli(args);
          expect([0, 1, 2]).toContain(result.code);
          if (result.code === 2) expect(result.stderr).toMatch(/^api-changelog: .*fuzz-\d+\.json/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
