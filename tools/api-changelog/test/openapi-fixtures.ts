import { ClassifiedChange, diffDocuments, parseOpenApi } from '../src';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = Record<string, any>;

export const document = (paths: Doc, components: Doc = {}, version = '3.0.3'): Doc => ({
  openapi: version,
  info: { title: 'Code Analysis API', version: '1.0' },
  paths,
  components,
});

/** Both documents go through the real loader (version checks, $ref resolution) before the diff. */
export async function changelog(before: Doc, after: Doc): Promise<ClassifiedChange[]> {
  const [o, n] = await Promise.all([
    parseOpenApi(JSON.stringify(before), 'old.json'),
    parseOpenApi(JSON.stringify(after), 'new.json'),
  ]);
  return diffDocuments(o, n);
}

export const summary = (changes: ClassifiedChange[]) =>
  changes.map(({ group, kind, method, path, description }) => ({ group, kind, method, path, description }));

export const json = (schema: Doc) => ({ content: { 'application/json': { schema } } });
export const ok = (schema: Doc, description = 'OK') => ({ description, ...json(schema) });
export const int = (format?: string) => (format ? { type: 'integer', format } : { type: 'integer' });
export const obj = (properties: Doc, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});
export const pathParam = (name: string, format = 'int64') => ({
  name,
  in: 'path',
  required: true,
  schema: int(format),
});
export const query = (name: string, schema: Doc, required = false) => ({ name, in: 'query', required, schema });
