import { ContractChecker } from './contract-check';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('ContractChecker', () => {
  const checker = new ContractChecker({
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': {
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
      '/things/special': { get: { responses: { '204': {} } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'at'],
          properties: {
            id: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
            note: { type: 'string', nullable: true },
          },
        },
      },
    },
  } as never);

  it('accepts a body that matches the schema of its status, $refs and nullable included', () => {
    expect(
      checker.check(
        'GET',
        '/things/1?x=1',
        200,
        'application/json; charset=utf-8',
        json({ id: '1', at: '2026-11-25T10:00:00Z', note: null }),
      ),
    ).toBeUndefined();
    expect(checker.check('GET', '/things/1', 404, 'application/json', json({ code: 'not_found' }))).toBeUndefined();
  });

  it('names a body that breaks the schema, and a status the operation does not document', () => {
    expect(
      checker.check('GET', '/things/1', 200, 'application/json', json({ id: 1, at: '2026-11-25T10:00:00Z' })),
    ).toMatch(/GET \/things\/\{id\} → 200: body does not match the schema \(\/id must be string\)/);
    expect(checker.check('GET', '/things/1', 200, 'application/json', json({ id: '1', at: 'yesterday' }))).toMatch(
      /format/,
    );
    expect(checker.check('GET', '/things/1', 500, 'application/json', json({ code: 'x' }))).toMatch(
      /status not documented \(documented: 200, 404\)/,
    );
    expect(checker.check('GET', '/things/1', 200, 'application/json', Buffer.from('{not json'))).toMatch(/not JSON/);
  });

  it('prefers a literal path over a template, and ignores paths the document does not describe', () => {
    expect(checker.check('GET', '/things/special', 204, undefined, Buffer.alloc(0))).toBeUndefined();
    expect(checker.check('GET', '/things/special', 200, 'application/json', json({}))).toMatch(
      /special → 200: status not documented/,
    );
    expect(checker.check('GET', '/health', 503, 'application/json', json({ status: 'down' }))).toBeUndefined();
    expect(checker.check('POST', '/things/1', 405, 'application/json', json({}))).toBeUndefined();
  });

  it('finds a JSON body where the contract documents none', () => {
    const bare = new ContractChecker({
      paths: { '/x': { post: { responses: { '200': { description: 'empty' } } } } },
    } as never);
    expect(bare.check('POST', '/x', 200, 'application/json', json({ a: 1 }))).toMatch(
      /a JSON body where the contract documents none/,
    );
    expect(bare.check('POST', '/x', 200, undefined, Buffer.alloc(0))).toBeUndefined();
  });
});
