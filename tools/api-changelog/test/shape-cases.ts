import { base, Case, edited, PATH, prop, requestSchema, responseSchema } from './check-fixtures';
import { Doc, document, int, obj } from './openapi-fixtures';

const fooBar = () => ({ foo: { type: 'string' }, bar: { type: 'string' } });
/** The body wrapped into a `oneOf`/`anyOf` of the same object with fewer required properties each. */
const wrapped = (keyword: 'oneOf' | 'anyOf', schema: Doc, requiredEach: string[][]) => {
  for (const key of Object.keys(schema)) delete schema[key];
  schema[keyword] = requiredEach.map((required) => obj(fooBar(), required));
};

function withProperty(name: string, value: Doc, schemas: Doc, version?: string): Doc {
  const op = base();
  requestSchema(op)['properties'][name] = value;
  return document({ [PATH]: { post: op } }, { schemas }, version);
}
const withOwner = (owner: Doc) => withProperty('owner', owner, { Owner: obj({ id: int() }, ['id']) });
const withRole = (role: Doc) =>
  withProperty('role', role, { Role: { type: 'string', enum: ['user', 'admin'] } }, '3.1.0');

/** Pairs for the checks about alternatives, allOf members, readOnly/writeOnly flips. */
export const shapeCases: Case[] = [
  [
    'response-one-of-added',
    'breaking',
    'Added',
    'a `oneOf` alternative added to response property `owner` for status 200',
    edited(
      (op) => prop(responseSchema(op), 'owner')['oneOf'].push(obj({ team: { type: 'string' } }, ['team'])),
      (op) => (responseSchema(op)['properties'].owner = { oneOf: [obj({ user: { type: 'string' } }, ['user'])] }),
    ),
  ],
  [
    'request-all-of-added',
    'breaking',
    'Added',
    'an `allOf` schema added to the request body',
    edited((op) => {
      const schema = requestSchema(op);
      op['requestBody'].content['application/json'].schema = { allOf: [schema, { type: 'object' }] };
    }),
  ],
  [
    'request-variants-restructured',
    'breaking',
    'Changed',
    'the request body wrapped into a `oneOf`',
    edited(
      (op) => wrapped('oneOf', requestSchema(op), [['foo'], ['bar']]),
      (op) => (op['requestBody'].content['application/json'].schema = obj(fooBar(), ['foo', 'bar'])),
    ),
  ],
  [
    'response-variants-restructured',
    'breaking',
    'Changed',
    'the response body wrapped into a `anyOf` for status 200',
    edited(
      (op) => wrapped('anyOf', responseSchema(op), [['foo'], ['bar']]),
      (op) => (op['responses']['200'].content['application/json'].schema = obj(fooBar(), ['foo', 'bar'])),
    ),
  ],
  [
    'request-property-became-read-only',
    'potentially-breaking',
    'Changed',
    'request property `severity` became read-only',
    edited((op) => (prop(requestSchema(op), 'severity')['readOnly'] = true)),
  ],
  [
    'response-property-became-write-only',
    'potentially-breaking',
    'Changed',
    'response property `state` became write-only for status 200',
    edited((op) => (prop(responseSchema(op), 'state')['writeOnly'] = true)),
  ],
];

/** Restructurings that accept every old value (requests) or only yield handled ones (responses): never listed. */
export const shapeSilent: [string, [Doc, Doc]][] = [
  [
    'a request body wrapped into an anyOf whose first alternative is the old body',
    edited((op) => {
      const schema = requestSchema(op);
      op['requestBody'].content['application/json'].schema = { anyOf: [schema, obj({ ref: int() }, ['ref'])] };
    }),
  ],
  [
    'a response body wrapped into a oneOf of narrower alternatives',
    edited(
      (op) =>
        wrapped('oneOf', responseSchema(op), [
          ['foo', 'bar'],
          ['foo', 'bar'],
        ]),
      (op) => {
        op['responses']['200'].content['application/json'].schema = obj(fooBar(), ['foo']);
      },
    ),
  ],
  [
    'a $ref wrapped into an allOf with a description (NestJS does this)',
    [
      withOwner({ $ref: '#/components/schemas/Owner' }),
      withOwner({ allOf: [{ $ref: '#/components/schemas/Owner' }], description: 'Who owns it' }),
    ],
  ],
  [
    'an allOf member that only describes added to a request',
    edited(
      (op) => requestSchema(op)['allOf'].push({ description: 'An issue to file' }),
      (op) => (op['requestBody'].content['application/json'].schema = { allOf: [requestSchema(op)] }),
    ),
  ],
  [
    'an inline anyOf alternative moved into a component',
    [
      withRole({ anyOf: [{ type: 'string', enum: ['user', 'admin'] }, { type: 'null' }] }),
      withRole({ anyOf: [{ $ref: '#/components/schemas/Role' }, { type: 'null' }] }),
    ],
  ],
];
