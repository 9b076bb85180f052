import { edited31, prop, requestSchema, responseSchema } from './check-fixtures';
import { Doc } from './openapi-fixtures';

const addProp = (schema: Doc, name: string, value: Doc) => (schema['properties'][name] = value);
const strings = { type: 'array', items: { type: 'string' } };
const ifHigh = { properties: { severity: { const: 'high' } } };
const ifOpen = { properties: { state: { const: 'open' } } };

/** Changes of the 3.1 families that only widen what a client sends or narrow what it reads: never listed. */
export const keywordSilent31: [string, [Doc, Doc]][] = [
  [
    'request minContains lowered and maxContains raised (each bound is its own: no swap)',
    edited31(
      (op) => Object.assign(prop(requestSchema(op), 'tags'), { minContains: 1, maxContains: 6 }),
      (op) =>
        addProp(requestSchema(op), 'tags', { ...strings, contains: { const: 'a' }, minContains: 2, maxContains: 5 }),
    ),
  ],
  [
    'response minContains raised and maxContains lowered',
    edited31(
      (op) => Object.assign(prop(responseSchema(op), 'labels'), { minContains: 2, maxContains: 5 }),
      (op) =>
        addProp(responseSchema(op), 'labels', { ...strings, contains: { const: 'a' }, minContains: 1, maxContains: 6 }),
    ),
  ],
  [
    'a request tuple position described by prefixItems exactly as items described it',
    edited31(
      (op) => (prop(requestSchema(op), 'ids')['prefixItems'] = [{ type: 'string' }]),
      (op) => addProp(requestSchema(op), 'ids', { ...strings }),
    ),
  ],
  [
    'request if/then/else removed',
    edited31(
      (op) => (delete requestSchema(op)['if'], delete requestSchema(op)['then']),
      (op) => Object.assign(requestSchema(op), { if: ifHigh, then: { required: ['severity'] } }),
    ),
  ],
  [
    'response then added',
    edited31(
      (op) => (responseSchema(op)['then'] = { required: ['id'] }),
      (op) => (responseSchema(op)['if'] = ifOpen),
    ),
  ],
  [
    'a response dependentRequired entry guarantees one more property',
    edited31(
      (op) => (responseSchema(op)['dependentRequired'] = { state: ['id', 'owner'] }),
      (op) => (responseSchema(op)['dependentRequired'] = { state: ['id'] }),
    ),
  ],
  [
    'request patternProperties removed, response patternProperties added',
    edited31(
      (op) => {
        delete prop(requestSchema(op), 'meta')['patternProperties'];
        prop(responseSchema(op), 'meta')['patternProperties'] = { '^x-': { type: 'string' } };
      },
      (op) => {
        addProp(requestSchema(op), 'meta', { type: 'object', patternProperties: { '^x-': { type: 'string' } } });
        addProp(responseSchema(op), 'meta', { type: 'object' });
      },
    ),
  ],
  [
    'request unevaluatedProperties removed',
    edited31(
      (op) => delete requestSchema(op)['unevaluatedProperties'],
      (op) => (requestSchema(op)['unevaluatedProperties'] = false),
    ),
  ],
  [
    'a request dependentRequired removed',
    edited31(
      (op) => delete requestSchema(op)['dependentRequired'],
      (op) => (requestSchema(op)['dependentRequired'] = { severity: ['title'] }),
    ),
  ],
  [
    'a request not removed',
    edited31(
      (op) => delete prop(requestSchema(op), 'severity')['not'],
      (op) => (prop(requestSchema(op), 'severity')['not'] = { const: 'none' }),
    ),
  ],
];
