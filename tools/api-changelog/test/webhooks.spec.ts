import { CHECKS } from '../src';
import { changelog, Doc, document, int, json, obj, summary } from './openapi-fixtures';

/** A webhook the API sends: its request body is what a receiver reads, its responses what a receiver answers. */
const hook = (): Doc => ({
  post: {
    requestBody: { required: true, ...json(obj({ id: int('int64'), state: { type: 'string' } }, ['id', 'state'])) },
    responses: { '200': { description: 'Received', ...json(obj({ ok: { type: 'boolean' } })) } },
  },
});
const withHooks = (hooks: Doc): Doc => ({ ...document({}, {}, '3.1.0'), webhooks: hooks });
const edited = (edit: (op: Doc) => void): [Doc, Doc] => {
  const after = hook();
  edit(after['post']);
  return [withHooks({ scanFinished: hook() }), withHooks({ scanFinished: after })];
};

type HookCase = [check: string, group: string, kind: string, description: string, docs: [Doc, Doc]];
const cases: HookCase[] = [
  ['webhook-removed', 'breaking', 'Removed', 'webhook removed', [withHooks({ scanFinished: hook() }), withHooks({})]],
  [
    'webhook-deprecated',
    'potentially-breaking',
    'Deprecated',
    'webhook deprecated',
    edited((op) => (op['deprecated'] = true)),
  ],
  [
    'webhook-success-status-removed',
    'potentially-breaking',
    'Removed',
    "the receiver's success response with status 200 removed",
    edited((op) => (op['responses'] = { '204': { description: 'Received' } })),
  ],
  // Payload: the receiver reads it, so removing a property breaks it and adding one does not.
  [
    'response-property-removed',
    'breaking',
    'Removed',
    'required request property `state` removed',
    edited((op) => delete op['requestBody'].content['application/json'].schema.properties.state),
  ],
  [
    'response-type-changed',
    'breaking',
    'Changed',
    'the type of request property `state` changed from `string` to `string | integer`',
    edited(
      (op) => (op['requestBody'].content['application/json'].schema.properties.state.type = ['string', 'integer']),
    ),
  ],
  [
    'response-property-became-optional',
    'breaking',
    'Changed',
    'request property `state` became optional',
    edited((op) => (op['requestBody'].content['application/json'].schema.required = ['id'])),
  ],
  // Answer: the receiver sends it, so a newly required property breaks it.
  [
    'new-required-request-property',
    'breaking',
    'Added',
    'required response property `receipt` added for status 200',
    edited((op) => {
      const schema = op['responses']['200'].content['application/json'].schema;
      schema.properties.receipt = { type: 'string' };
      schema.required = ['receipt'];
    }),
  ],
  [
    'request-property-removed',
    'breaking',
    'Removed',
    'response property `ok` removed for status 200',
    edited((op) => delete op['responses']['200'].content['application/json'].schema.properties.ok),
  ],
];

describe('webhooks: compared like operations, with the directions swapped', () => {
  it.each(cases)('%s: %s %s "%s"', async (check, group, kind, description, [before, after]) => {
    const changes = await changelog(before, after);
    expect(changes.map((c) => ({ check: c.check, ...summary([c])[0] }))).toEqual([
      { check, group, kind, method: 'POST', path: 'webhook scanFinished', description },
    ]);
  });

  it('covers every webhook check of the table', () => {
    expect(
      Object.keys(CHECKS).filter((id) => id.startsWith('webhook-') && !cases.some(([check]) => check === id)),
    ).toEqual([]);
  });

  it.each([
    [
      'a payload property added',
      edited((op) => (op['requestBody'].content['application/json'].schema.properties.url = { type: 'string' })),
    ],
    ['a webhook added', [withHooks({}), withHooks({ scanFinished: hook() })] as [Doc, Doc]],
    [
      'an answer property became optional',
      edited((op) => (op['responses']['200'].content['application/json'].schema.required = [])),
    ],
  ])('%s is left out', async (_name, [before, after]) => {
    expect(await changelog(before, after)).toEqual([]);
  });
});

describe('callbacks: compared like webhooks, named after their operation', () => {
  const operation = (callback: Doc): Doc => ({
    post: {
      requestBody: json(obj({ url: { type: 'string' } })),
      responses: { '202': { description: 'Accepted' } },
      callbacks: { scanDone: { '{$request.body#/url}': callback } },
    },
  });
  const route = '/api/v1/scans';

  it('reports a payload property removed as breaking, under the callback name', async () => {
    const after = hook();
    delete after['post'].requestBody.content['application/json'].schema.properties.id;
    const changes = await changelog(document({ [route]: operation(hook()) }), document({ [route]: operation(after) }));
    expect(summary(changes)).toEqual([
      {
        group: 'breaking',
        kind: 'Removed',
        method: 'POST',
        path: 'POST /api/v1/scans callback scanDone {$request.body#/url}',
        description: 'required request property `id` removed',
      },
    ]);
  });

  it('reports a callback removed', async () => {
    const without = document({ [route]: { post: { ...operation(hook())['post'], callbacks: {} } } });
    const changes = await changelog(document({ [route]: operation(hook()) }), without);
    expect(changes.map((c) => c.check)).toEqual(['webhook-removed']);
  });
});
