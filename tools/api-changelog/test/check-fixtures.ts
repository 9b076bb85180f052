import { document, Doc, int, json, obj, ok, pathParam, query } from './openapi-fixtures';

export const PATH = '/api/v1/deployments/{deploymentId}/issues';
export const base = (): Doc => ({
  parameters: [pathParam('deploymentId'), query('status', { type: 'string' })],
  requestBody: { required: true, ...json(obj({ title: { type: 'string' }, severity: { type: 'string' } }, ['title'])) },
  responses: { '200': ok(obj({ id: int('int64'), state: { type: 'string' } }, ['id', 'state'])) },
});
/** The same operation before and after `edit`; `edit` mutates a fresh copy. */
export const edited = (edit: (op: Doc) => void, before: (op: Doc) => void = () => undefined): [Doc, Doc] => {
  const o = base();
  before(o);
  const n = structuredClone(o);
  edit(n);
  return [document({ [PATH]: { post: o } }), document({ [PATH]: { post: n } })];
};
export const requestSchema = (op: Doc): Doc => op['requestBody'].content['application/json'].schema;
export const responseSchema = (op: Doc): Doc => op['responses']['200'].content['application/json'].schema;
export const prop = (schema: Doc, name: string): Doc => schema['properties'][name];

export type Case = [check: string, group: string, kind: string, description: string, docs: [Doc, Doc], method?: string];

/** As `edited`, in OpenAPI 3.1 documents (JSON Schema 2020-12 keywords). */
export const edited31 = (edit: (op: Doc) => void, before: (op: Doc) => void = () => undefined): [Doc, Doc] => {
  const [o, n] = edited(edit, before);
  return [
    { ...o, openapi: '3.1.0' },
    { ...n, openapi: '3.1.0' },
  ];
};
