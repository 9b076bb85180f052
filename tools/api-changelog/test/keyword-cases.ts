import { Case, edited, edited31, prop, requestSchema, responseSchema } from './check-fixtures';
import { Doc, int, obj } from './openapi-fixtures';

const header = (op: Doc, name: string, value: Doc) =>
  (op['responses']['200'].headers = { ...op['responses']['200'].headers, [name]: value });
const strings = { type: 'array', items: { type: 'string' } };
const deepObject = (severity: Doc) => ({
  name: 'filter',
  in: 'query',
  style: 'deepObject',
  schema: { type: 'object', properties: { severity } },
});

/** One pair per check of the response-header, default-value, untyped-body and deepObject families. */
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
    'request-parameter-default-changed',
    'breaking',
    'Changed',
    'the default value of query parameter `status` changed from `"open"` to `"all"`',
    edited(
      (op) => (op['parameters'][1].schema.default = 'all'),
      (op) => (op['parameters'][1].schema.default = 'open'),
    ),
  ],
  [
    'request-parameter-default-added',
    'breaking',
    'Added',
    'default value `"open"` added to query parameter `status`',
    edited((op) => (op['parameters'][1].schema.default = 'open')),
  ],
  [
    'request-parameter-default-removed',
    'breaking',
    'Removed',
    'default value `20` removed from query parameter `limit`',
    edited(
      (op) => delete op['parameters'][2].schema.default,
      (op) => op['parameters'].push({ name: 'limit', in: 'query', schema: { ...int(), default: 20 } }),
    ),
  ],
  [
    'request-default-value-changed',
    'potentially-breaking',
    'Changed',
    'the default value of request property `severity` changed from `"low"` to `"high"`',
    edited(
      (op) => (prop(requestSchema(op), 'severity')['default'] = 'high'),
      (op) => (prop(requestSchema(op), 'severity')['default'] = 'low'),
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
    'default value `"low"` removed from request property `severity`',
    edited(
      (op) => delete prop(requestSchema(op), 'severity')['default'],
      (op) => (prop(requestSchema(op), 'severity')['default'] = 'low'),
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
    'request-deep-object-type-changed',
    'potentially-breaking',
    'Changed',
    'the type of query parameter `filter` property `severity` changed from `boolean` to `integer`',
    edited(
      (op) => (op['parameters'][2].schema.properties.severity = int()),
      (op) => op['parameters'].push(deepObject({ type: 'boolean' })),
    ),
  ],
  [
    'request-type-changed',
    'breaking',
    'Changed',
    'the type of query parameter `filter` property `severity` changed from `string` to `integer`',
    edited(
      (op) => (op['parameters'][2].schema.properties.severity = int()),
      (op) => op['parameters'].push(deepObject({ type: 'string' })),
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
    'a default changed on a required query parameter (it never applies)',
    edited(
      (op) => Object.assign(op['parameters'][1], { required: true, schema: { type: 'string', default: 'all' } }),
      (op) => Object.assign(op['parameters'][1], { required: true, schema: { type: 'string', default: 'open' } }),
    ),
  ],
  ['a default added to a path parameter (always sent)', edited((op) => (op['parameters'][0].schema.default = 7))],
  [
    'a default changed on a required request property',
    edited(
      (op) => (prop(requestSchema(op), 'title')['default'] = 'b'),
      (op) => (prop(requestSchema(op), 'title')['default'] = 'a'),
    ),
  ],
  [
    'a default changed on a required request body',
    edited(
      (op) => (op['requestBody'].content['text/plain'] = { schema: { type: 'string', default: 'b' } }),
      (op) => (op['requestBody'].content['text/plain'] = { schema: { type: 'string', default: 'a' } }),
    ),
  ],
  [
    'a query `string | integer` generalised to an exploded array of strings (query values are text)',
    edited(
      (op) => (op['parameters'][1].schema = { ...strings }),
      (op) => (op['parameters'][1].schema = { type: ['string', 'integer'] }),
    ),
  ],
  [
    'a query integer generalised to a string (query values are text)',
    edited(
      (op) => (op['parameters'][1].schema = { type: 'string' }),
      (op) => (op['parameters'][1].schema = int()),
    ),
  ],
  [
    'a deepObject property generalised from number to string',
    edited(
      (op) => (op['parameters'][2].schema.properties.severity = { type: 'string' }),
      (op) => op['parameters'].push(deepObject({ type: 'number' })),
    ),
  ],
  [
    'an XML request body changed from an object to a string (XML is text)',
    edited(
      (op) => (op['requestBody'].content['application/xml'] = { schema: { type: 'string' } }),
      (op) => (op['requestBody'].content['application/xml'] = { schema: obj({ title: { type: 'string' } }) }),
    ),
  ],
  [
    'an XML response body changed from a string to an object (the client read text)',
    edited(
      (op) => (op['responses']['200'].content['application/xml'] = { schema: obj({ id: int() }) }),
      (op) => (op['responses']['200'].content['application/xml'] = { schema: { type: 'string' } }),
    ),
  ],
  [
    'a response header changed from a string to an integer (the client read text)',
    edited(
      (op) => (op['responses']['200'].headers['X-Count'].schema = int()),
      (op) => header(op, 'X-Count', { schema: { type: 'string' } }),
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
