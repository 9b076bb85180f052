import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { loadOpenApi, parseOpenApi } from '../src';
import { WORKSPACE_ROOT } from '../src/export-openapi';
import { Doc, document, int, obj, ok } from './openapi-fixtures';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-changelog-deref-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const contracts = readdirSync(path.join(WORKSPACE_ROOT, 'apps'))
  .map((app) => path.join(WORKSPACE_ROOT, 'apps', app, 'openapi.json'))
  .filter((file) => existsSync(file));

const referencing: Doc = document(
  {
    '/api/v1/scans/{scanId}': {
      get: {
        responses: {
          '200': { $ref: '#/components/responses/Scan' },
          '404': { $ref: '#/paths/~1api~1v1~1health/get/responses/200' },
        },
      },
    },
    '/api/v1/health': { get: { responses: { '200': ok(obj({ status: { type: 'string' } })) } } },
  },
  {
    responses: { Scan: ok({ $ref: '#/components/schemas/Alias' }) },
    schemas: {
      Alias: { $ref: '#/components/schemas/Scan' },
      Scan: obj({ id: int('int64'), findings_counts: { $ref: '#/components/schemas/Counts' } }),
      Counts: obj({ total: int('uint32') }),
    },
  },
);

describe('the in-place resolver for local $refs', () => {
  it.each([
    ['a document with chained, escaped and nested pointers', JSON.stringify(referencing)],
    ...contracts.map((file) => [path.relative(WORKSPACE_ROOT, file), file] as [string, string]),
  ])('gives the same document as json-schema-ref-parser: %s', async (_name, source) => {
    const text = source.startsWith('{') ? source : await readFile(source, 'utf8');
    const ours = await parseOpenApi(text, path.join(dir, 'doc.json'));
    const theirs = await $RefParser.dereference(JSON.parse(text), { dereference: { circular: true } });
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });

  it('keeps one object per target, cycles included', async () => {
    const doc = document(
      { '/api/v1/rules': { get: { responses: { '200': ok({ $ref: '#/components/schemas/Rule' }) } } } },
      {
        schemas: {
          Rule: obj({
            id: int('int64'),
            parent: { $ref: '#/components/schemas/Rule' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Rule' } },
          }),
        },
      },
    );
    const loaded = (await parseOpenApi(JSON.stringify(doc), 'rules.json')) as unknown as Doc;
    const rule = loaded['paths']['/api/v1/rules'].get.responses['200'].content['application/json'].schema;
    expect(rule).toBe(loaded['components'].schemas.Rule);
    expect(rule.properties.parent).toBe(rule);
    expect(rule.properties.children.items).toBe(rule);
  });

  it('falls back to the general resolver when a $ref the quick text scan missed leaves the file', async () => {
    await writeFile(path.join(dir, 'counts.json'), JSON.stringify(obj({ total: int('uint32') })));
    // "\u0024ref" is "$ref" once parsed, but invisible to the text scan.
    const text = JSON.stringify(
      document(
        { '/api/v1/counts': { get: { responses: { '200': ok({ $ref: '#/components/schemas/Counts' }) } } } },
        { schemas: { Counts: { REF: './counts.json' } } },
      ),
    ).replace('"REF"', '"\\u0024ref"');
    const file = path.join(dir, 'escaped.json');
    await writeFile(file, text);
    const loaded = (await loadOpenApi(file)) as unknown as Doc;
    expect(loaded['paths']['/api/v1/counts'].get.responses['200'].content['application/json'].schema).toEqual(
      obj({ total: int('uint32') }),
    );
  });
});
