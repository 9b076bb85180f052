import { base, edited, PATH, prop, requestSchema, responseSchema } from './check-fixtures';
import { keywordSilent } from './keyword-cases';
import { keywordSilent31 } from './keyword-silent-31';
import { Doc, document, pathParam, query } from './openapi-fixtures';
import { shapeSilent } from './shape-cases';

/** Changes that are neither breaking nor potentially breaking: every family's, plus the core ones below. */
export const silent: [string, [Doc, Doc]][] = [
  ...keywordSilent,
  ...keywordSilent31,
  ...shapeSilent,
  [
    'a response property added without a new success status',
    edited((op) => (responseSchema(op)['properties'].url = { type: 'string' })),
  ],
  [
    'a value added to a request enum',
    edited(
      (op) => (prop(requestSchema(op), 'severity')['enum'] = ['low', 'high']),
      (op) => (prop(requestSchema(op), 'severity')['enum'] = ['low']),
    ),
  ],
  [
    'a value removed from a response enum',
    edited(
      (op) => (prop(responseSchema(op), 'state')['enum'] = ['open']),
      (op) => (prop(responseSchema(op), 'state')['enum'] = ['open', 'fixed']),
    ),
  ],
  [
    'a request bound loosened',
    edited(
      (op) => (prop(requestSchema(op), 'title')['maxLength'] = 512),
      (op) => (prop(requestSchema(op), 'title')['maxLength'] = 256),
    ),
  ],
  [
    'a request integer widened int32 to int64',
    edited(
      (op) => (op['parameters'][0].schema.format = 'int64'),
      (op) => (op['parameters'][0].schema.format = 'int32'),
    ),
  ],
  ['a response integer narrowed int64 to int32', edited((op) => (prop(responseSchema(op), 'id')['format'] = 'int32'))],
  ['a request property became optional', edited((op) => (requestSchema(op)['required'] = []))],
  [
    'a path parameter renamed',
    [
      document({ [PATH]: { post: base() } }),
      document({
        '/api/v1/deployments/{id}/issues': {
          post: { ...base(), parameters: [pathParam('id'), query('status', { type: 'string' })] },
        },
      }),
    ],
  ],
  [
    'an error response removed',
    edited(
      (op) => delete op['responses']['404'],
      (op) => (op['responses']['404'] = { description: 'Not found' }),
    ),
  ],
  [
    'a readOnly property removed from a request',
    edited(
      (op) => delete requestSchema(op)['properties'].id,
      (op) => (requestSchema(op)['properties'].id = { type: 'string', readOnly: true }),
    ),
  ],
  ['an operation added', [document({ [PATH]: { post: base() } }), document({ [PATH]: { post: base(), get: base() } })]],
  [
    'a response that became non-nullable',
    edited(
      (op) => delete prop(responseSchema(op), 'state')['nullable'],
      (op) => (prop(responseSchema(op), 'state')['nullable'] = true),
    ),
  ],
];
