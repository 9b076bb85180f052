import { Case, edited31, prop, requestSchema, responseSchema } from './check-fixtures';
import { Doc } from './openapi-fixtures';

const addProp = (schema: Doc, name: string, value: Doc) => (schema['properties'][name] = value);
const strings = { type: 'array', items: { type: 'string' } };
const ifHigh = { properties: { severity: { const: 'high' } } };
const ifOpen = { properties: { state: { const: 'open' } } };

/** One pair per check of the OpenAPI 3.1 (JSON Schema 2020-12) keyword families. */
export const keywordCases31: Case[] = [
  [
    'request-const-added',
    'breaking',
    'Changed',
    'request property `severity` restricted to the constant "high"',
    edited31((op) => (prop(requestSchema(op), 'severity')['const'] = 'high')),
  ],
  [
    'request-const-changed',
    'breaking',
    'Changed',
    'the constant of request property `severity` changed from "high" to "low"',
    edited31(
      (op) => (prop(requestSchema(op), 'severity')['const'] = 'low'),
      (op) => (prop(requestSchema(op), 'severity')['const'] = 'high'),
    ),
  ],
  [
    'response-const-changed',
    'breaking',
    'Changed',
    'the constant of response property `state` changed from "open" to "closed" for status 200',
    edited31(
      (op) => (prop(responseSchema(op), 'state')['const'] = 'closed'),
      (op) => (prop(responseSchema(op), 'state')['const'] = 'open'),
    ),
  ],
  [
    'response-const-removed',
    'breaking',
    'Changed',
    'response property `state` no longer restricted to the constant "open" for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'state')['const'],
      (op) => (prop(responseSchema(op), 'state')['const'] = 'open'),
    ),
  ],
  [
    'request-conditional-added',
    'breaking',
    'Added',
    '`then` schema added to the request body',
    edited31(
      (op) => (requestSchema(op)['then'] = { required: ['severity'] }),
      (op) => (requestSchema(op)['if'] = ifHigh),
    ),
  ],
  [
    'request-conditional-changed',
    'potentially-breaking',
    'Changed',
    'the `if` schema of the request body changed',
    edited31(
      (op) => (requestSchema(op)['if'] = { properties: { severity: { const: 'low' } } }),
      (op) => Object.assign(requestSchema(op), { if: ifHigh, then: { required: ['severity'] } }),
    ),
  ],
  [
    'request-property-became-required',
    'breaking',
    'Changed',
    'request property `(then).severity` became required',
    edited31(
      (op) => (requestSchema(op)['then'] = { required: ['title', 'severity'] }),
      (op) => Object.assign(requestSchema(op), { if: ifHigh, then: { required: ['title'] } }),
    ),
  ],
  [
    'response-conditional-removed',
    'breaking',
    'Removed',
    '`else` schema removed from the response body for status 200',
    edited31(
      (op) => delete responseSchema(op)['else'],
      (op) => Object.assign(responseSchema(op), { if: ifOpen, else: { required: ['id'] } }),
    ),
  ],
  [
    'response-conditional-changed',
    'potentially-breaking',
    'Changed',
    'the `if` schema of the response body changed for status 200',
    edited31(
      (op) => (responseSchema(op)['if'] = { properties: { state: { const: 'fixed' } } }),
      (op) => Object.assign(responseSchema(op), { if: ifOpen, then: { required: ['id'] } }),
    ),
  ],
  [
    'request-dependent-required-added',
    'breaking',
    'Added',
    'the request body with property `severity` now also requires `title`',
    edited31((op) => (requestSchema(op)['dependentRequired'] = { severity: ['title'] })),
  ],
  [
    'response-dependent-required-removed',
    'breaking',
    'Removed',
    'the response body with property `state` no longer guarantees `id` for status 200',
    edited31(
      (op) => delete responseSchema(op)['dependentRequired'],
      (op) => (responseSchema(op)['dependentRequired'] = { state: ['id'] }),
    ),
  ],
  [
    'request-dependent-schema-added',
    'breaking',
    'Added',
    'dependent schema for property `severity` added to the request body',
    edited31((op) => (requestSchema(op)['dependentSchemas'] = { severity: { required: ['title'] } })),
  ],
  [
    'response-dependent-schema-removed',
    'breaking',
    'Removed',
    'dependent schema for property `state` removed from the response body for status 200',
    edited31(
      (op) => delete responseSchema(op)['dependentSchemas'],
      (op) => (responseSchema(op)['dependentSchemas'] = { state: { required: ['id'] } }),
    ),
  ],
  [
    'request-contains-added',
    'breaking',
    'Added',
    '`contains` schema added to request property `tags`',
    edited31(
      (op) => (prop(requestSchema(op), 'tags')['contains'] = { const: 'triage' }),
      (op) => addProp(requestSchema(op), 'tags', { ...strings }),
    ),
  ],
  [
    'response-contains-removed',
    'breaking',
    'Removed',
    '`contains` schema removed from response property `labels` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'labels')['contains'],
      (op) => addProp(responseSchema(op), 'labels', { ...strings, contains: { const: 'bug' } }),
    ),
  ],
  [
    'request-enum-added',
    'breaking',
    'Changed',
    'request property `tags(contains)` restricted to the values "triage", "bug"',
    edited31(
      (op) => (prop(requestSchema(op), 'tags')['contains'] = { type: 'string', enum: ['triage', 'bug'] }),
      (op) => addProp(requestSchema(op), 'tags', { ...strings, contains: { type: 'string' } }),
    ),
  ],
  [
    'request-bounds-tightened',
    'breaking',
    'Changed',
    '`minContains` of request property `tags` tightened from 1 to 2',
    edited31(
      (op) => (prop(requestSchema(op), 'tags')['minContains'] = 2),
      (op) => addProp(requestSchema(op), 'tags', { ...strings, contains: { const: 'a' }, minContains: 1 }),
    ),
  ],
  [
    'request-bounds-tightened',
    'breaking',
    'Changed',
    '`maxContains` of request property `tags` tightened from 5 to 3',
    edited31(
      (op) => (prop(requestSchema(op), 'tags')['maxContains'] = 3),
      (op) => addProp(requestSchema(op), 'tags', { ...strings, contains: { const: 'a' }, maxContains: 5 }),
    ),
  ],
  [
    'request-pattern-property-added',
    'breaking',
    'Added',
    'pattern property `^x-` added to request property `meta`',
    edited31(
      (op) => (prop(requestSchema(op), 'meta')['patternProperties'] = { '^x-': { type: 'string' } }),
      (op) => addProp(requestSchema(op), 'meta', { type: 'object' }),
    ),
  ],
  [
    'response-pattern-property-removed',
    'breaking',
    'Removed',
    'pattern property `^x-` removed from response property `meta` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'meta')['patternProperties'],
      (op) => addProp(responseSchema(op), 'meta', { type: 'object', patternProperties: { '^x-': { type: 'string' } } }),
    ),
  ],
  [
    'request-property-names-added',
    'breaking',
    'Added',
    '`propertyNames` schema added to request property `meta`',
    edited31(
      (op) => (prop(requestSchema(op), 'meta')['propertyNames'] = { pattern: '^[a-z]+$' }),
      (op) => addProp(requestSchema(op), 'meta', { type: 'object' }),
    ),
  ],
  [
    'response-property-names-removed',
    'breaking',
    'Removed',
    '`propertyNames` schema removed from response property `meta` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'meta')['propertyNames'],
      (op) => addProp(responseSchema(op), 'meta', { type: 'object', propertyNames: { pattern: '^[a-z]+$' } }),
    ),
  ],
  [
    'request-content-schema-added',
    'breaking',
    'Added',
    '`contentSchema` schema added to request property `payload`',
    edited31(
      (op) => (prop(requestSchema(op), 'payload')['contentSchema'] = { type: 'object' }),
      (op) => addProp(requestSchema(op), 'payload', { type: 'string', contentMediaType: 'application/json' }),
    ),
  ],
  [
    'response-content-schema-removed',
    'breaking',
    'Removed',
    '`contentSchema` schema removed from response property `payload` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'payload')['contentSchema'],
      (op) =>
        addProp(responseSchema(op), 'payload', {
          type: 'string',
          contentMediaType: 'application/json',
          contentSchema: { type: 'object' },
        }),
    ),
  ],
  [
    'request-content-encoding-changed',
    'breaking',
    'Changed',
    '`contentEncoding` of request property `payload` changed from `base64` to `base32`',
    edited31(
      (op) => (prop(requestSchema(op), 'payload')['contentEncoding'] = 'base32'),
      (op) => addProp(requestSchema(op), 'payload', { type: 'string', contentEncoding: 'base64' }),
    ),
  ],
  [
    'response-content-encoding-changed',
    'breaking',
    'Changed',
    '`contentMediaType` of response property `payload` changed from `image/png` to `none` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'payload')['contentMediaType'],
      (op) => addProp(responseSchema(op), 'payload', { type: 'string', contentMediaType: 'image/png' }),
    ),
  ],
  [
    'request-type-restricted',
    'breaking',
    'Changed',
    'the type of request property `point[1]` changed from `any` to `number`',
    edited31(
      (op) => prop(requestSchema(op), 'point')['prefixItems'].push({ type: 'number' }),
      (op) => addProp(requestSchema(op), 'point', { type: 'array', prefixItems: [{ type: 'number' }] }),
    ),
  ],
  [
    'response-type-unrestricted',
    'breaking',
    'Changed',
    'the type of response property `point[1]` changed from `number` to `any` for status 200',
    edited31(
      (op) => prop(responseSchema(op), 'point')['prefixItems'].pop(),
      (op) =>
        addProp(responseSchema(op), 'point', { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] }),
    ),
  ],
  [
    'request-prefix-items-added',
    'potentially-breaking',
    'Added',
    'tuple positions (`prefixItems`, 1 position) added to request property `ids`',
    edited31(
      (op) => (prop(requestSchema(op), 'ids')['prefixItems'] = [{ type: 'integer' }]),
      (op) => addProp(requestSchema(op), 'ids', { ...strings }),
    ),
  ],
  [
    'response-prefix-items-removed',
    'potentially-breaking',
    'Removed',
    'tuple positions (`prefixItems`, 1 position) removed from response property `ids` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'ids')['prefixItems'],
      (op) => addProp(responseSchema(op), 'ids', { ...strings, prefixItems: [{ type: 'integer' }] }),
    ),
  ],
  [
    'response-type-changed',
    'breaking',
    'Changed',
    'the type of response property `point[0]` changed from `number` to `string` for status 200',
    edited31(
      (op) => (prop(responseSchema(op), 'point')['prefixItems'][0] = { type: 'string' }),
      (op) => addProp(responseSchema(op), 'point', { type: 'array', prefixItems: [{ type: 'number' }] }),
    ),
  ],
  [
    'request-unevaluated-restricted',
    'breaking',
    'Changed',
    '`unevaluatedProperties` of the request body restricted to `false`',
    edited31((op) => (requestSchema(op)['unevaluatedProperties'] = false)),
  ],
  [
    'response-unevaluated-relaxed',
    'breaking',
    'Changed',
    '`unevaluatedItems` of response property `labels` relaxed from `false` for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'labels')['unevaluatedItems'],
      (op) => addProp(responseSchema(op), 'labels', { ...strings, unevaluatedItems: false }),
    ),
  ],
  [
    'request-not-added',
    'breaking',
    'Added',
    'a `not` schema added to request property `severity`',
    edited31((op) => (prop(requestSchema(op), 'severity')['not'] = { const: 'none' })),
  ],
  [
    'request-not-changed',
    'potentially-breaking',
    'Changed',
    'the `not` schema of request property `severity` changed',
    edited31(
      (op) => (prop(requestSchema(op), 'severity')['not'] = { const: 'unknown' }),
      (op) => (prop(requestSchema(op), 'severity')['not'] = { const: 'none' }),
    ),
  ],
  [
    'response-not-changed',
    'potentially-breaking',
    'Changed',
    'the `not` schema of response property `state` removed for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'state')['not'],
      (op) => (prop(responseSchema(op), 'state')['not'] = { const: 'deleted' }),
    ),
  ],
  [
    'request-type-changed',
    'breaking',
    'Changed',
    'the type of request property `severity` changed from `string | null` to `string`',
    edited31(
      (op) => (prop(requestSchema(op), 'severity')['type'] = 'string'),
      (op) => (prop(requestSchema(op), 'severity')['type'] = ['string', 'null']),
    ),
  ],
  [
    'response-type-changed',
    'breaking',
    'Changed',
    'the type of response property `state` changed from `string` to `null | string` for status 200',
    edited31((op) => (prop(responseSchema(op), 'state')['type'] = ['null', 'string'])),
  ],
];
