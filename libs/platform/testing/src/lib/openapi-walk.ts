import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { hostileJsonValue, hostileText, UNSTORABLE_STRINGS } from './hostile-input';

/* Minimal shapes of a dereferenced OpenAPI 3 document: only what the walk reads. */
interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
export interface WalkableDocument {
  paths: Record<string, Record<string, Operation | unknown>>;
}

export interface OpenApiWalkOptions {
  baseUrl: string;
  document: WalkableDocument;
  /** Credentials for an operation, so hostile values get past authentication to validation. */
  headers: (method: string, path: string) => Record<string, string>;
  /** Query parameters every request carries (an API key sent in the query). */
  query?: (method: string, path: string) => Record<string, string>;
  /** A real value per path parameter name (an existing id), used while another input is hostile. */
  pathValues?: Record<string, string>;
  /** Generated hostile values per input, besides the fixed unstorable ones (default 6). */
  samplesPerInput?: number;
  seed?: number;
}

export interface WalkFinding {
  operation: string;
  input: string;
  outcome: string;
}

export interface WalkReport {
  operations: string[];
  requests: number;
  /** Every request answered 5xx or not answered at all. */
  findings: WalkFinding[];
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Percent-encodes any JS string, lone surrogates included (as their WTF-8 bytes, which a server must refuse). */
export function encodeHostile(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

function merged(schema: Schema | undefined): Schema {
  if (!schema) return {};
  const parts = [
    ...(schema.allOf ?? []),
    ...(schema.oneOf?.slice(0, 1) ?? []),
    ...(schema.anyOf?.slice(0, 1) ?? []),
  ].map(merged);
  return parts.reduce<Schema>(
    (all, part) => ({
      ...part,
      ...all,
      properties: { ...part.properties, ...all.properties },
      required: [...(all.required ?? []), ...(part.required ?? [])],
    }),
    schema,
  );
}

/** A plausible value for a schema (example, default, enum, else by type), so one input at a time is hostile. */
export function plausibleValue(input: Schema | undefined, depth = 0): unknown {
  const schema = merged(input);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return depth > 3 ? [] : [plausibleValue(schema.items, depth + 1)];
  if (schema.type === 'object' || schema.properties) {
    if (depth > 3) return {};
    return Object.fromEntries(
      (schema.required ?? []).map((name) => [name, plausibleValue(schema.properties?.[name], depth + 1)]),
    );
  }
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'email') return 'walker@example.com';
  if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
  return 'sample';
}

/** Dotted paths of a body schema's properties, nested objects included (to depth 3). */
function propertyPaths(schema: Schema | undefined, prefix: string[] = [], depth = 0): string[][] {
  const properties = merged(schema).properties ?? {};
  return Object.entries(properties).flatMap(([name, child]) => {
    const path = [...prefix, name];
    const nested = depth < 3 && merged(child).properties ? propertyPaths(child, path, depth + 1) : [];
    return [path, ...nested];
  });
}

/** A copy of `base` with the value at `path` replaced (missing parents created). */
function withValueAt(base: unknown, path: string[], value: unknown): unknown {
  const root = structuredClone((base ?? {}) as Record<string, unknown>);
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
  return root;
}

interface Variant {
  input: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  /** Sent as is: JSON the test process itself could not stringify (too deep for its stack). */
  rawBody?: string;
}

/** `{"a":[{"a":[…"x"…]}]}` nested `depth` levels, written as text. */
export function deeplyNestedJson(depth: number): string {
  const half = Math.floor(depth / 2);
  return `${'{"a":['.repeat(half)}"x"${']}'.repeat(half)}`;
}

function variants(
  path: string,
  operation: Operation,
  options: OpenApiWalkOptions,
  texts: string[],
  values: unknown[],
): Variant[] {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const basePath = Object.fromEntries(
    pathParams.map((p) => [p.name, options.pathValues?.[p.name] ?? String(plausibleValue(p.schema))]),
  );
  const bodySchema =
    operation.requestBody?.content?.['application/json']?.schema ??
    operation.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
  const baseBody = bodySchema ? plausibleValue(bodySchema) : undefined;
  const out: Variant[] = [];
  for (const param of pathParams)
    for (const text of texts)
      out.push({ input: `path ${param.name}`, path: { ...basePath, [param.name]: text }, query: {}, body: baseBody });
  for (const param of params.filter((p) => p.in === 'query'))
    for (const text of texts)
      out.push({ input: `query ${param.name}`, path: basePath, query: { [param.name]: text }, body: baseBody });
  if (bodySchema) {
    for (const property of propertyPaths(bodySchema)) {
      for (const value of values)
        out.push({
          input: `body ${property.join('.')}`,
          path: basePath,
          query: {},
          body: withValueAt(baseBody, property, value),
        });
    }
    out.push({ input: 'body (deeply nested)', path: basePath, query: {}, rawBody: deeplyNestedJson(20_000) });
    out.push({
      input: 'body (hostile key)',
      path: basePath,
      query: {},
      body: { ...(baseBody as object), 'k\u0000': 'v' },
    });
  }
  void path;
  return out;
}

async function send(
  options: OpenApiWalkOptions,
  method: string,
  template: string,
  variant: Variant,
): Promise<string | undefined> {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeHostile(variant.path[name] ?? 'x'));
  const query = Object.entries({ ...options.query?.(method, template), ...variant.query })
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeHostile(v)}`)
    .join('&');
  const body = variant.rawBody ?? (variant.body === undefined ? undefined : JSON.stringify(variant.body));
  const hasBody = body !== undefined && method !== 'get';
  try {
    const response = await fetch(`${options.baseUrl}${path}${query ? `?${query}` : ''}`, {
      method: method.toUpperCase(),
      headers: { ...options.headers(method, template), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: hasBody ? body : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    await response.arrayBuffer();
    return response.status >= 500 ? `HTTP ${response.status}` : undefined;
  } catch (error) {
    return `no answer: ${(error as Error).message}`;
  }
}

/**
 * Sends hostile values (NUL, lone surrogates, overlong text, wrong types, deep nesting) to every input of
 * every operation of an OpenAPI document, one input at a time, and reports each answer that was a 5xx or none.
 */
export async function walkOpenApiWithHostileInput(options: OpenApiWalkOptions): Promise<WalkReport> {
  const samples = options.samplesPerInput ?? 6;
  const seed = options.seed ?? 13;
  const texts = [
    ...UNSTORABLE_STRINGS,
    'x'.repeat(5000),
    ...fc.sample(hostileText({ maxOverlong: 5000 }), { numRuns: samples, seed }),
  ];
  const values = [...UNSTORABLE_STRINGS, ...fc.sample(hostileJsonValue(), { numRuns: samples, seed })];
  const report: WalkReport = { operations: [], requests: 0, findings: [] };
  for (const [template, item] of Object.entries(options.document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const name = `${method.toUpperCase()} ${template}`;
      report.operations.push(name);
      for (const variant of variants(template, operation as Operation, options, texts, values)) {
        report.requests += 1;
        const outcome = await send(options, method, template, variant);
        if (outcome) report.findings.push({ operation: name, input: variant.input, outcome });
      }
    }
  }
  return report;
}

/** An app's committed contract (apps/<app>/openapi.json, operator routes included), every $ref resolved. */
export async function readDereferencedOpenApi(file: string): Promise<WalkableDocument> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const document = JSON.parse(await readFile(file, 'utf8'));
  return (await SwaggerParser.dereference(document)) as unknown as WalkableDocument;
}
