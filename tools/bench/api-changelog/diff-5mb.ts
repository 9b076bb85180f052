/**
 * Time to diff two ~5 MB OpenAPI documents (target: under 2 s), against the raw baseline of reading and
 * JSON.parse-ing the same two files. Run: node -r @swc-node/register tools/bench/api-changelog/diff-5mb.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { diffDocuments, loadOpenApi, toMarkdown } from '../../api-changelog/src';
import { ratio, timed } from '../support/report';

const TARGET_BYTES = 5 * 1024 * 1024;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

/** A code-analysis-like API: shared component schemas plus inline bodies, so both memoised and fresh comparisons happen. */
function generate(version: 1 | 2, operations: number): Doc {
  const changed = (i: number) => version === 2 && i % 20 === 0;
  const schemas: Doc = {};
  for (let c = 0; c < 200; c++) {
    schemas[`Finding${c}`] = {
      type: 'object',
      required: ['id', 'rule'],
      properties: {
        id: { type: 'integer', format: changed(c) ? 'int64' : 'uint64' },
        rule: { type: 'string', maxLength: 256 },
        severity: {
          type: 'string',
          enum: changed(c + 1) ? ['low', 'medium', 'high', 'critical'] : ['low', 'medium', 'high'],
        },
        location: {
          type: 'object',
          properties: {
            path: { type: 'string' },
            line: { type: 'integer', format: 'int32' },
            column: { type: 'integer', format: 'int32' },
          },
        },
        ...(changed(c + 2) ? {} : { sastFindings: { type: 'integer' } }),
      },
    };
  }
  const paths: Doc = {};
  for (let i = 0; i < operations; i++) {
    const properties: Doc = {};
    for (let p = 0; p < 24; p++) {
      properties[`field_${p}`] =
        p % 4 === 0
          ? {
              type: 'object',
              properties: {
                value: { type: 'string', maxLength: 128 },
                count: { type: 'integer', format: changed(i) && p === 0 ? 'int64' : 'uint32' },
              },
            }
          : { type: 'string', description: `Field ${p} of operation ${i}` };
    }
    if (changed(i)) properties['is_partial_scan'] = { type: 'boolean' };
    paths[`/api/v1/deployments/{deploymentId}/resource_${i}/{itemId}`] = {
      parameters: [{ name: 'deploymentId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: {
        ...(changed(i) ? { deprecated: true } : {}),
        parameters: [
          { name: 'itemId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', format: 'uint32', maximum: 100 } },
        ],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    findings: { type: 'array', items: { $ref: `#/components/schemas/Finding${i % 200}` } },
                  },
                },
              },
            },
          },
        },
      },
      post: {
        parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['field_1'], properties } } },
        },
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/Finding${(i + 7) % 200}` } } },
          },
          ...(changed(i) ? { '202': { description: 'Queued' } } : {}),
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Code Analysis API', version: `${version}.0` },
    paths,
    components: { schemas },
  };
}

function sized(version: 1 | 2): string {
  let operations = 500;
  for (;;) {
    const text = JSON.stringify(generate(version, operations), null, 2);
    if (text.length >= TARGET_BYTES) return text;
    operations = Math.ceil(operations * (TARGET_BYTES / text.length) * 1.02);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'api-changelog-bench-'));
  try {
    const [oldFile, newFile] = [path.join(dir, 'old.json'), path.join(dir, 'new.json')];
    writeFileSync(oldFile, sized(1));
    writeFileSync(newFile, sized(2));
    const mb = (file: string) => (statSync(file).size / 1024 / 1024).toFixed(2);
    console.log(`documents: ${mb(oldFile)} MB and ${mb(newFile)} MB`);

    const { ms: baseline } = await timed(() => {
      JSON.parse(readFileSync(oldFile, 'utf8'));
      JSON.parse(readFileSync(newFile, 'utf8'));
    });
    const {
      value: [o, n],
      ms: loaded,
    } = await timed(() => Promise.all([loadOpenApi(oldFile), loadOpenApi(newFile)]));
    const { value: changes, ms: diffed } = await timed(() => {
      const found = diffDocuments(o, n);
      toMarkdown(found);
      return found;
    });
    const inProcess = loaded + diffed;

    const cliRun = async (a: string, b: string) =>
      (
        await timed(() =>
          execFileSync(
            process.execPath,
            [
              '-r',
              '@swc-node/register',
              path.join(__dirname, '../../api-changelog/src/cli.ts'),
              a,
              b,
              '--format',
              'json',
            ],
            { maxBuffer: 1 << 28 },
          ),
        )
      ).ms;
    const tiny = path.join(dir, 'tiny.json');
    writeFileSync(tiny, JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }));
    const startup = await cliRun(tiny, tiny);
    const cli = await cliRun(oldFile, newFile);

    const breaking = changes.filter((c) => c.group === 'breaking').length;
    console.log(`changes found: ${changes.length} (${breaking} breaking)`);
    console.log(`raw baseline (read + JSON.parse both): ${baseline.toFixed(0)} ms`);
    console.log(`load + $ref resolution + checks: ${loaded.toFixed(0)} ms; diff + Markdown: ${diffed.toFixed(0)} ms`);
    console.log(
      `in-process total: ${inProcess.toFixed(0)} ms = ${ratio(inProcess, baseline, 1)}x the raw baseline, ${((inProcess / 2000) * 100).toFixed(0)}% of the 2 s target`,
    );
    console.log(
      `CLI end to end (node + swc-node startup included): ${cli.toFixed(0)} ms = ${ratio(cli, baseline, 1)}x the raw baseline, ${((cli / 2000) * 100).toFixed(0)}% of the 2 s target`,
    );
    console.log(`  of which process startup (same CLI on two empty documents): ${startup.toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
