import { Case, edited, edited31, prop, requestSchema, responseSchema } from './check-fixtures';
import { Doc, int } from './openapi-fixtures';

const header = (op: Doc, name: string, value: Doc) =>
  (op['responses']['200'].headers = { ...op['responses']['200'].headers, [name]: value });
const addProp = (schema: Doc, name: string, value: Doc) => (schema['properties'][name] = value);
const strings = { type: 'array', items: { type: 'string' } };

/** One pair per check of the response-header, default-value, untyped-body and OpenAPI 3.1 families. */
export const keywordCases: Case[] = [
  [
    'request-pattern-changed',
    'potentially-breaking',
    'Changed',
    'the pattern of request property `title` changed from `^[A-Z]` to `^[A-Z][a-z]`',
    edited(
      (op) => (prop(requestSchema(op), 'title')['pattern'] = '^[A-Z][a-z]'),
      (op) => (prop(requestSchema(op), 'title')['pattern'] = '^[A-Z]'),
    ),
  ],
  [
    'response-required-header-removed',
    'breaking',
    'Removed',
    'required response header `X-RateLimit-Limit` removed for status 200',
    edited(
      (op) => delete op['responses']['200'].headers,
      (op) => header(op, 'X-RateLimit-Limit', { required: true, schema: int() }),
    ),
  ],
  [
    'response-optional-header-removed',
    'potentially-breaking',
    'Removed',
    'optional response header `ETag` removed for status 200',
    edited(
      (op) => delete op['responses']['200'].headers,
      (op) => header(op, 'ETag', { schema: { type: 'string' } }),
    ),
  ],
  [
    'response-header-became-optional',
    'breaking',
    'Changed',
    'response header `X-RateLimit-Limit` became optional for status 200',
    edited(
      (op) => (op['responses']['200'].headers['X-RateLimit-Limit'].required = false),
      (op) => header(op, 'X-RateLimit-Limit', { required: true, schema: int() }),
    ),
  ],
  [
    'response-type-changed',
    'breaking',
    'Changed',
    'the type of response header `X-RateLimit-Limit` changed from `integer` to `string` for status 200',
    edited(
      (op) => (op['responses']['200'].headers['X-RateLimit-Limit'].schema = { type: 'string' }),
      (op) => header(op, 'X-RateLimit-Limit', { required: true, schema: int() }),
    ),
  ],
  [
    'request-default-value-changed',
    'breaking',
    'Changed',
    'the default value of query parameter `status` changed from `"open"` to `"all"`',
    edited(
      (op) => (op['parameters'][1].schema.default = 'all'),
      (op) => (op['parameters'][1].schema.default = 'open'),
    ),
  ],
  [
    'request-default-value-added',
    'potentially-breaking',
    'Added',
    'default value `"low"` added to request property `severity`',
    edited((op) => (prop(requestSchema(op), 'severity')['default'] = 'low')),
  ],
  [
    'request-default-value-removed',
    'potentially-breaking',
    'Removed',
    'default value `20` removed from query parameter `limit`',
    edited(
      (op) => delete op['parameters'][2].schema.default,
      (op) => op['parameters'].push({ name: 'limit', in: 'query', schema: { ...int(), default: 20 } }),
    ),
  ],
  [
    'request-type-restricted',
    'breaking',
    'Changed',
    'the type of the request body changed from `any` to `string` (text/plain)',
    edited(
      (op) => (op['requestBody'].content['text/plain'] = { schema: { type: 'string' } }),
      (op) => (op['requestBody'].content['text/plain'] = {}),
    ),
  ],
  [
    'response-type-unrestricted',
    'breaking',
    'Changed',
    'the type of the response body changed from `string` to `any` (text/plain) for status 200',
    edited(
      (op) => (op['responses']['200'].content['text/plain'] = {}),
      (op) => (op['responses']['200'].content['text/plain'] = { schema: { type: 'string' } }),
    ),
  ],
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
    'potentially-breaking',
    'Changed',
    'response property `state` no longer restricted to the constant "open" for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'state')['const'],
      (op) => (prop(responseSchema(op), 'state')['const'] = 'open'),
    ),
  ],
  [
    'request-conditional-changed',
    'potentially-breaking',
    'Changed',
    'the `then` schema of the request body changed',
    edited31(
      (op) => (requestSchema(op)['then'] = { required: ['title', 'severity'] }),
      (op) =>
        Object.assign(requestSchema(op), {
          if: { properties: { severity: { const: 'high' } } },
          then: { required: ['title'] },
        }),
    ),
  ],
  [
    'response-conditional-changed',
    'potentially-breaking',
    'Changed',
    'the `else` schema of the response body removed for status 200',
    edited31(
      (op) => delete responseSchema(op)['else'],
      (op) =>
        Object.assign(responseSchema(op), {
          if: { properties: { state: { const: 'open' } } },
          else: { required: ['id'] },
        }),
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
    'potentially-breaking',
    'Removed',
    'the response body with property `state` no longer guarantees `id` for status 200',
    edited31(
      (op) => delete responseSchema(op)['dependentRequired'],
      (op) => (responseSchema(op)['dependentRequired'] = { state: ['id'] }),
    ),
  ],
  [
    'request-dependent-schema-changed',
    'potentially-breaking',
    'Changed',
    'the dependent schema `severity` of the request body added',
    edited31((op) => (requestSchema(op)['dependentSchemas'] = { severity: { required: ['title'] } })),
  ],
  [
    'response-dependent-schema-changed',
    'potentially-breaking',
    'Changed',
    'the dependent schema `state` of the response body removed for status 200',
    edited31(
      (op) => delete responseSchema(op)['dependentSchemas'],
      (op) => (responseSchema(op)['dependentSchemas'] = { state: { required: ['id'] } }),
    ),
  ],
  [
    'request-contains-changed',
    'breaking',
    'Changed',
    'the `contains` schema of request property `tags` added',
    edited31(
      (op) => (prop(requestSchema(op), 'tags')['contains'] = { const: 'triage' }),
      (op) => addProp(requestSchema(op), 'tags', { ...strings }),
    ),
  ],
  [
    'response-contains-changed',
    'potentially-breaking',
    'Changed',
    'the `contains` schema of response property `labels` removed for status 200',
    edited31(
      (op) => delete prop(responseSchema(op), 'labels')['contains'],
      (op) => addProp(responseSchema(op), 'labels', { ...strings, contains: { const: 'bug' } }),
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
    'request-prefix-item-added',
    'breaking',
    'Added',
    'request property `point` constrains tuple position 1',
    edited31(
      (op) => prop(requestSchema(op), 'point')['prefixItems'].push({ type: 'number' }),
      (op) => addProp(requestSchema(op), 'point', { type: 'array', prefixItems: [{ type: 'number' }] }),
    ),
  ],
  [
    'response-prefix-item-removed',
    'potentially-breaking',
    'Removed',
    'response property `point` no longer describes tuple positions from 1 for status 200',
    edited31(
      (op) => prop(responseSchema(op), 'point')['prefixItems'].pop(),
      (op) =>
        addProp(responseSchema(op), 'point', { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] }),
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
    'potentially-breaking',
    'Changed',
    '`unevaluatedProperties` of the request body restricted to `false`',
    edited31((op) => (requestSchema(op)['unevaluatedProperties'] = false)),
  ],
  [
    'response-unevaluated-relaxed',
    'potentially-breaking',
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
  [
    'request-deep-object-type-changed',
    'potentially-breaking',
    'Changed',
    'the type of query parameter `filter` property `severity` changed from `string` to `integer`',
    edited(
      (op) => (op['parameters'][2].schema.properties.severity = int()),
      (op) =>
        op['parameters'].push({
          name: 'filter',
          in: 'query',
          style: 'deepObject',
          schema: { type: 'object', properties: { severity: { type: 'string' } } },
        }),
    ),
  ],
];

/** Changes of these families that only widen what a client sends or reads, or document: never listed. */
export const keywordSilent: [string, [Doc, Doc]][] = [
  [
    'a request pattern removed',
    edited(
      (op) => delete prop(requestSchema(op), 'title')['pattern'],
      (op) => (prop(requestSchema(op), 'title')['pattern'] = '^[A-Z]'),
    ),
  ],
  [
    'a request pattern generalised to .*',
    edited(
      (op) => (prop(requestSchema(op), 'title')['pattern'] = '.*'),
      (op) => (prop(requestSchema(op), 'title')['pattern'] = '^[A-Z]'),
    ),
  ],
  [
    'a query string generalised to an exploded array of strings',
    edited((op) => (op['parameters'][1].schema = { ...strings })),
  ],
  [
    'a query integer generalised to an exploded array of integers',
    edited(
      (op) => (op['parameters'][1].schema = { type: 'array', items: int() }),
      (op) => (op['parameters'][1].schema = int()),
    ),
  ],
  [
    'examples changed',
    edited31(
      (op) => (prop(requestSchema(op), 'title')['examples'] = ['b']),
      (op) => (prop(requestSchema(op), 'title')['examples'] = ['a']),
    ),
  ],
  [
    'a response header renamed only in case',
    edited(
      (op) => (op['responses']['200'].headers = { 'x-ratelimit-limit': { required: true, schema: int() } }),
      (op) => header(op, 'X-RateLimit-Limit', { required: true, schema: int() }),
    ),
  ],
  ['an optional response header added', edited((op) => header(op, 'ETag', { schema: { type: 'string' } }))],
  [
    'a response default value changed',
    edited(
      (op) => (prop(responseSchema(op), 'state')['default'] = 'fixed'),
      (op) => (prop(responseSchema(op), 'state')['default'] = 'open'),
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
  [
    'a request body schema dropped (accepts anything)',
    edited(
      (op) => (op['requestBody'].content['text/plain'] = {}),
      (op) => (op['requestBody'].content['text/plain'] = { schema: { type: 'string' } }),
    ),
  ],
];
