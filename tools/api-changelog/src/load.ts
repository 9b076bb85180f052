import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { dereferenceLocal, mayHaveExternalRefs, NonLocalRefError } from './dereference';
import { ChangelogInputError, JsonObject, OpenApiDocument } from './model';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseText(text: string, file: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed === '') throw new ChangelogInputError(`${file}: the file is empty`);
  const json = file.endsWith('.json');
  if (json || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      // A YAML file may open with a flow mapping (`{openapi: 3.1.0, ...}`): only a .json name must be JSON.
      if (json) throw new ChangelogInputError(`${file}: not valid JSON (${(error as Error).message})`);
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new ChangelogInputError(`${file}: not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
}

/** What the diff relies on, checked before $refs are followed, so a wrong file fails with its own reason. */
function checkVersion(doc: unknown, file: string): asserts doc is JsonObject {
  if (!isObject(doc))
    throw new ChangelogInputError(`${file}: not an OpenAPI document (the top level must be an object)`);
  if ('swagger' in doc) {
    throw new ChangelogInputError(
      `${file}: Swagger ${String(doc['swagger'])} documents are not supported; convert it to OpenAPI 3.0 or 3.1 first`,
    );
  }
  const version = doc['openapi'];
  if (version === undefined)
    throw new ChangelogInputError(`${file}: not an OpenAPI document (no "openapi" version field)`);
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    throw new ChangelogInputError(
      `${file}: unsupported OpenAPI version ${JSON.stringify(version)} (expected 3.0.x or 3.1.x)`,
    );
  }
}

function checkStructure(doc: JsonObject, file: string): void {
  const fail = (where: string, problem: string): never => {
    throw new ChangelogInputError(`${file}: invalid OpenAPI document at ${where}: ${problem}`);
  };
  const info = doc['info'];
  if (!isObject(info) || typeof info['title'] !== 'string' || typeof info['version'] !== 'string')
    fail('#/info', 'an object with a string title and version is required');
  const is31 = String(doc['openapi']).startsWith('3.1');
  if (doc['paths'] === undefined && !is31) fail('#/paths', 'required in OpenAPI 3.0');
  if (doc['paths'] !== undefined && !isObject(doc['paths'])) fail('#/paths', 'must be an object');
  for (const [route, item] of Object.entries((doc['paths'] as JsonObject | undefined) ?? {})) {
    const where = `#/paths/${route.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!route.startsWith('/')) fail(where, 'a path must start with "/"');
    if (!isObject(item)) fail(where, 'a path item must be an object');
    const pathItem = item as JsonObject;
    checkParameters(pathItem['parameters'], `${where}/parameters`, fail);
    for (const method of METHODS) {
      if (!(method in pathItem)) continue;
      const operation = pathItem[method];
      if (!isObject(operation)) fail(`${where}/${method}`, 'an operation must be an object');
      const op = operation as JsonObject;
      checkParameters(op['parameters'], `${where}/${method}/parameters`, fail);
      if (op['responses'] === undefined && !is31) fail(`${where}/${method}/responses`, 'required in OpenAPI 3.0');
      if (op['responses'] !== undefined && !isObject(op['responses']))
        fail(`${where}/${method}/responses`, 'must be an object');
      if (op['requestBody'] !== undefined && !isObject(op['requestBody']))
        fail(`${where}/${method}/requestBody`, 'must be an object');
    }
  }
}

function checkParameters(value: unknown, where: string, fail: (where: string, problem: string) => never): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(where, 'must be an array');
  (value as unknown[]).forEach((p, i) => {
    if (
      !isObject(p) ||
      typeof p['name'] !== 'string' ||
      !['path', 'query', 'header', 'cookie'].includes(String(p['in']))
    ) {
      fail(`${where}/${i}`, 'a parameter needs a string "name" and "in" of path, query, header or cookie');
    }
  });
}

/**
 * Reads a local OpenAPI 3.0/3.1 document (JSON or YAML) and resolves every $ref (local and relative files; no
 * network). Any problem is a ChangelogInputError naming the file.
 */
export async function loadOpenApi(file: string): Promise<OpenApiDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new ChangelogInputError(`${file}: cannot read the file (${reason})`);
  }
  return parseOpenApi(text, file);
}

/** Same as loadOpenApi for text already in memory (e.g. `git show`); relative $refs resolve from `file`'s folder. */
export async function parseOpenApi(text: string, file: string): Promise<OpenApiDocument> {
  let raw = parseText(text, file);
  checkVersion(raw, file);
  if (!mayHaveExternalRefs(text)) {
    try {
      const resolved = dereferenceLocal(raw, file) as JsonObject;
      checkStructure(resolved, file);
      return resolved as unknown as OpenApiDocument;
    } catch (error) {
      if (!(error instanceof NonLocalRefError)) throw error;
      raw = parseText(text, file) as JsonObject;
    }
  }
  let resolved: JsonObject;
  try {
    // Loaded on demand: only documents with $refs into other files need the general resolver.
    const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
    resolved = (await $RefParser.dereference(path.resolve(file), raw, {
      resolve: { http: false },
      dereference: { circular: true },
    })) as JsonObject;
  } catch (error) {
    const message = (error as Error).message.replace(/\s+/g, ' ').trim();
    throw new ChangelogInputError(`${file}: unresolved $ref (${message})`);
  }
  checkStructure(resolved, file);
  return resolved as unknown as OpenApiDocument;
}
