import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CHECKS } from '../src';
import { base, Case, edited, PATH, prop, requestSchema, responseSchema } from './check-fixtures';
import { keywordCases } from './keyword-cases';
import { keywordCases31 } from './keyword-cases-31';
import { shapeCases } from './shape-cases';
import { silent } from './silent-cases';
import { changelog, document, int, json, obj, query } from './openapi-fixtures';

const cases: Case[] = [
  ...keywordCases,
  ...keywordCases31,
  ...shapeCases,
  [
    'endpoint-removed',
    'breaking',
    'Removed',
    'endpoint removed',
    [document({ [PATH]: { post: base(), get: base() } }), document({ [PATH]: { get: base() } })],
  ],
  [
    'deprecated-endpoint-removed',
    'potentially-breaking',
    'Removed',
    'deprecated endpoint removed',
    [
      document({ [PATH]: { post: { ...base(), deprecated: true }, get: base() } }),
      document({ [PATH]: { get: base() } }),
    ],
  ],
  [
    'endpoint-deprecated',
    'potentially-breaking',
    'Deprecated',
    'endpoint deprecated',
    edited((op) => (op['deprecated'] = true)),
  ],
  [
    'security-added',
    'breaking',
    'Changed',
    'authentication now required',
    edited((op) => (op['security'] = [{ bearer: [] }])),
  ],
  [
    'response-success-status-removed',
    'breaking',
    'Removed',
    'the success response with status 201 removed',
    edited(
      (op) => delete op['responses']['201'],
      (op) => (op['responses']['201'] = { description: 'Created' }),
    ),
  ],
  [
    'response-success-status-added',
    'breaking',
    'Added',
    'the success response with status 202 added',
    edited((op) => (op['responses']['202'] = { description: 'Accepted' })),
  ],
  [
    'response-media-type-removed',
    'breaking',
    'Removed',
    'response media type `text/csv` removed for status 200',
    edited(
      (op) => delete op['responses']['200'].content['text/csv'],
      (op) => (op['responses']['200'].content['text/csv'] = { schema: { type: 'string' } }),
    ),
  ],
  ['request-body-removed', 'breaking', 'Removed', 'request body removed', edited((op) => delete op['requestBody'])],
  [
    'request-body-added-required',
    'breaking',
    'Added',
    'required request body added',
    edited(
      (op) => (op['requestBody'] = { required: true, ...json(obj({ title: { type: 'string' } })) }),
      (op) => delete op['requestBody'],
    ),
  ],
  [
    'request-body-added-optional',
    'potentially-breaking',
    'Added',
    'optional request body added',
    edited(
      (op) => (op['requestBody'] = json(obj({ title: { type: 'string' } }))),
      (op) => delete op['requestBody'],
    ),
  ],
  [
    'request-body-became-required',
    'breaking',
    'Changed',
    'request body became required',
    edited(
      (op) => (op['requestBody'].required = true),
      (op) => (op['requestBody'].required = false),
    ),
  ],
  [
    'request-media-type-removed',
    'breaking',
    'Removed',
    'request media type `application/x-www-form-urlencoded` removed',
    edited(
      (op) => delete op['requestBody'].content['application/x-www-form-urlencoded'],
      (op) =>
        (op['requestBody'].content['application/x-www-form-urlencoded'] = {
          schema: obj({ title: { type: 'string' } }),
        }),
    ),
  ],
  [
    'request-parameter-removed',
    'breaking',
    'Removed',
    'query parameter `status` removed',
    edited((op) => op['parameters'].pop()),
  ],
  [
    'new-required-request-parameter',
    'breaking',
    'Added',
    'required header parameter `X-Tenant` added',
    edited((op) =>
      op['parameters'].push({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }),
    ),
  ],
  [
    'new-optional-request-parameter',
    'potentially-breaking',
    'Added',
    'optional query parameter `repository_ids` added',
    edited((op) => op['parameters'].push(query('repository_ids', { type: 'array', items: int('int64') }))),
  ],
  [
    'request-parameter-became-required',
    'breaking',
    'Changed',
    'query parameter `status` became required',
    edited((op) => (op['parameters'][1].required = true)),
  ],
  [
    'request-parameter-deprecated',
    'potentially-breaking',
    'Deprecated',
    'query parameter `status` deprecated',
    edited((op) => (op['parameters'][1].deprecated = true)),
  ],
  [
    'request-property-removed',
    'breaking',
    'Removed',
    'request property `assignee.email` removed',
    edited(
      (op) => delete prop(requestSchema(op), 'assignee')['properties'].email,
      (op) => (requestSchema(op)['properties'].assignee = obj({ email: { type: 'string' }, name: { type: 'string' } })),
    ),
  ],
  [
    'new-required-request-property',
    'breaking',
    'Added',
    'required request property `repository_id` added',
    edited(
      (op) => (
        (requestSchema(op)['properties'].repository_id = int('int64')),
        requestSchema(op)['required'].push('repository_id')
      ),
    ),
  ],
  [
    'new-optional-request-property',
    'potentially-breaking',
    'Added',
    'optional request property `labels` added',
    edited((op) => (requestSchema(op)['properties'].labels = { type: 'array', items: { type: 'string' } })),
  ],
  [
    'request-property-became-required',
    'breaking',
    'Changed',
    'request property `severity` became required',
    edited((op) => requestSchema(op)['required'].push('severity')),
  ],
  [
    'request-property-deprecated',
    'potentially-breaking',
    'Deprecated',
    'request property `severity` deprecated',
    edited((op) => (prop(requestSchema(op), 'severity')['deprecated'] = true)),
  ],
  [
    'request-type-changed',
    'breaking',
    'Changed',
    'the type of request property `severity` changed from `string` to `integer`',
    edited((op) => (prop(requestSchema(op), 'severity')['type'] = 'integer')),
  ],
  [
    'request-type-changed',
    'breaking',
    'Changed',
    'the type of request property `severity` changed from `string | null` to `string`',
    edited(
      (op) => delete prop(requestSchema(op), 'severity')['nullable'],
      (op) => (prop(requestSchema(op), 'severity')['nullable'] = true),
    ),
  ],
  [
    'request-enum-value-removed',
    'breaking',
    'Removed',
    'value `"low"` removed from the enum of request property `severity`',
    edited(
      (op) => (prop(requestSchema(op), 'severity')['enum'] = ['high']),
      (op) => (prop(requestSchema(op), 'severity')['enum'] = ['low', 'high']),
    ),
  ],
  [
    'request-enum-added',
    'breaking',
    'Changed',
    'query parameter `status` restricted to the values "open", "fixed"',
    edited((op) => (op['parameters'][1].schema.enum = ['open', 'fixed'])),
  ],
  [
    'request-bounds-tightened',
    'breaking',
    'Changed',
    '`maxLength` of request property `title` tightened from 256 to 128',
    edited(
      (op) => (prop(requestSchema(op), 'title')['maxLength'] = 128),
      (op) => (prop(requestSchema(op), 'title')['maxLength'] = 256),
    ),
  ],
  [
    'request-bounds-tightened',
    'breaking',
    'Changed',
    '`minimum` of path parameter `deploymentId` tightened from none to 1',
    edited((op) => (op['parameters'][0].schema.minimum = 1)),
  ],
  [
    'request-pattern-added',
    'breaking',
    'Changed',
    'the pattern of request property `title` changed from `none` to `^[A-Z]`',
    edited((op) => (prop(requestSchema(op), 'title')['pattern'] = '^[A-Z]')),
  ],
  [
    'request-format-narrowed',
    'breaking',
    'Changed',
    'the format of path parameter `deploymentId` changed from `int64` to `int32`',
    edited((op) => (op['parameters'][0].schema.format = 'int32')),
  ],
  [
    'request-format-changed',
    'breaking',
    'Changed',
    'the format of request property `due` changed from `date-time` to `date`',
    edited(
      (op) => (prop(requestSchema(op), 'due')['format'] = 'date'),
      (op) => (requestSchema(op)['properties'].due = { type: 'string', format: 'date-time' }),
    ),
  ],
  [
    'request-variant-removed',
    'breaking',
    'Removed',
    'a `oneOf` alternative of request property `ref` removed',
    edited(
      (op) => prop(requestSchema(op), 'ref')['oneOf'].pop(),
      (op) => (requestSchema(op)['properties'].ref = { oneOf: [{ type: 'string' }, int('int64')] }),
    ),
  ],
  [
    'integer-format-widened-to-int64',
    'potentially-breaking',
    'Changed',
    'the integer format of header parameter `X-Page` changed from `uint32` to `int64`',
    edited(
      (op) => (op['parameters'][2].schema.format = 'int64'),
      (op) => op['parameters'].push({ name: 'X-Page', in: 'header', schema: int('uint32') }),
    ),
  ],
  [
    'response-property-removed',
    'breaking',
    'Removed',
    'required response property `state` removed for status 200',
    edited((op) => ((responseSchema(op)['required'] = ['id']), delete responseSchema(op)['properties'].state)),
  ],
  [
    'response-property-became-optional',
    'breaking',
    'Changed',
    'response property `state` became optional for status 200',
    edited((op) => (responseSchema(op)['required'] = ['id'])),
  ],
  [
    'response-property-deprecated',
    'potentially-breaking',
    'Deprecated',
    'response property `state` deprecated for status 200',
    edited((op) => (prop(responseSchema(op), 'state')['deprecated'] = true)),
  ],
  [
    'response-type-changed',
    'breaking',
    'Changed',
    'the type of response property `state` changed from `string` to `string | null` for status 200',
    edited((op) => (prop(responseSchema(op), 'state')['type'] = ['string', 'null'])),
  ],
  [
    'response-enum-value-added',
    'potentially-breaking',
    'Added',
    'value `"ignored"` added to the enum of response property `state` for status 200',
    edited(
      (op) => (prop(responseSchema(op), 'state')['enum'] = ['open', 'fixed', 'ignored']),
      (op) => (prop(responseSchema(op), 'state')['enum'] = ['open', 'fixed']),
    ),
  ],
  [
    'response-enum-removed',
    'potentially-breaking',
    'Changed',
    'response property `state` no longer restricted to an enum for status 200',
    edited(
      (op) => delete prop(responseSchema(op), 'state')['enum'],
      (op) => (prop(responseSchema(op), 'state')['enum'] = ['open']),
    ),
  ],
  [
    'response-bounds-widened',
    'breaking',
    'Changed',
    '`maxLength` of response property `state` loosened from 16 to none for status 200',
    edited(
      (op) => delete prop(responseSchema(op), 'state')['maxLength'],
      (op) => (prop(responseSchema(op), 'state')['maxLength'] = 16),
    ),
  ],
  [
    'response-format-widened',
    'breaking',
    'Changed',
    'the format of response property `id` changed from `int32` to `int64` for status 200',
    edited(
      (op) => (prop(responseSchema(op), 'id')['format'] = 'int64'),
      (op) => (prop(responseSchema(op), 'id')['format'] = 'int32'),
    ),
  ],
  [
    'response-format-changed',
    'breaking',
    'Changed',
    'the format of response property `id` changed from `int64` to `uint64` for status 200',
    edited((op) => (prop(responseSchema(op), 'id')['format'] = 'uint64')),
  ],
  [
    'response-variant-added',
    'potentially-breaking',
    'Added',
    'a `anyOf` alternative added to response property `owner` for status 200',
    edited(
      (op) => prop(responseSchema(op), 'owner')['anyOf'].push(int('int64')),
      (op) => (responseSchema(op)['properties'].owner = { anyOf: [{ type: 'string' }] }),
    ),
  ],
  [
    'response-property-added',
    'breaking',
    'Added',
    'the success response with status 202 added; optional response property `url` added for status 200',
    edited((op) => {
      op['responses']['202'] = { description: 'Accepted' };
      responseSchema(op)['properties'].url = { type: 'string' };
    }),
  ],
];

describe('every check, one pair of documents each', () => {
  it.each(cases)('%s: %s %s "%s"', async (_check, group, kind, description, [before, after], method = 'POST') => {
    const changes = await changelog(before, after);
    expect(
      changes.map(({ check, ...rest }) => ({
        ...rest,
        check: check === 'response-success-status-added' ? _check : check,
      })),
    ).toEqual([{ check: _check, group, kind, method, path: PATH, description }]);
  });

  it('covers every check of the table', () => {
    expect(
      Object.keys(CHECKS).filter((id) => !id.startsWith('webhook-') && !cases.some(([check]) => check === id)),
    ).toEqual([]);
  });

  it('documents every check in the README table with its group and kind', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    for (const [id, { group, kind }] of Object.entries(CHECKS)) {
      expect(readme).toContain(`| \`${id}\` | ${group} | ${kind} |`);
    }
  });
});

describe('changes that are neither breaking nor potentially breaking', () => {
  it.each(silent)('%s is left out', async (_name, [before, after]) => {
    expect(await changelog(before, after)).toEqual([]);
  });
});
