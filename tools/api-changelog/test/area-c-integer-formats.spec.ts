import { changelog, Doc, document, int, json, obj, ok, pathParam, query, summary } from './openapi-fixtures';

/**
 * Area C's integer-format change, name by name: every identifier, counter and paging value the spec lists moves
 * from `uint32`/`uint64` to `int64` in path, query, request and response (status 200), and each is reported as
 * its own potentially breaking change. (area-c.spec.ts checks the whole change log of one document.)
 */
type Where = 'path' | 'query' | 'request' | 'response';
const NAMES: Array<[name: string, where: Where, from: 'uint32' | 'uint64']> = [
  ['deploymentId', 'path', 'uint64'],
  ['policyId', 'path', 'uint64'],
  ['scanId', 'path', 'uint64'],
  ['repositoryId', 'path', 'uint64'],
  ['externalTicketId', 'query', 'uint64'],
  ['cursor', 'query', 'uint64'],
  ['pageSize', 'query', 'uint32'],
  ['limit', 'query', 'uint32'],
  ['page', 'query', 'uint32'],
  ['page_size', 'query', 'uint32'],
  ['repository_ids', 'request', 'uint64'],
  ['issue_ids', 'request', 'uint64'],
  ['ticket_id', 'response', 'uint64'],
  ['num_triaged', 'response', 'uint32'],
  ['triaged_issues', 'response', 'uint32'],
  ['numDependencies', 'response', 'uint32'],
  ['deployment_id', 'response', 'uint64'],
  ['exit_code', 'response', 'uint32'],
  ['id', 'response', 'uint64'],
];

/** One operation whose only difference between versions is the integer format of `name` where it sits. */
function api(name: string, where: Where, format: string): Doc {
  const value = name.endsWith('_ids') ? { type: 'array', items: int(format) } : int(format);
  const parameters = where === 'path' ? [pathParam(name, format)] : where === 'query' ? [query(name, int(format))] : [];
  const path = where === 'path' ? `/api/v1/things/{${name}}` : '/api/v1/things';
  return document({
    [path]: {
      post: {
        parameters,
        ...(where === 'request' ? { requestBody: json(obj({ [name]: value })) } : {}),
        responses: { '200': ok(obj(where === 'response' ? { [name]: value } : { ok: { type: 'boolean' } })) },
      },
    },
  });
}

const SUBJECT: Record<Where, (name: string) => string> = {
  path: (name) => `path parameter \`${name}\``,
  query: (name) => `query parameter \`${name}\``,
  request: (name) => `request property \`${name}[]\``,
  response: (name) => `response property \`${name}\``,
};

describe("area C: each identifier, counter and paging value of the spec's integer-format change", () => {
  it('covers the twenty-odd names the spec lists, in all four places', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(19);
    expect(new Set(NAMES.map(([, where]) => where))).toEqual(new Set(['path', 'query', 'request', 'response']));
  });

  it.each(NAMES)('%s (%s) from %s to int64: reported, as potentially breaking', async (name, where, from) => {
    const changes = summary(await changelog(api(name, where, from), api(name, where, 'int64')));
    const subject =
      where === 'request' && !name.endsWith('_ids') ? `request property \`${name}\`` : SUBJECT[where](name);
    const suffix = where === 'response' ? ' for status 200' : '';
    expect(changes).toEqual([
      expect.objectContaining({
        group: 'potentially-breaking',
        kind: 'Changed',
        description: `the integer format of ${subject} changed from \`${from}\` to \`int64\`${suffix}`,
      }),
    ]);
  });
});
