import { changelog, Doc, document, int, json, obj, ok, pathParam, query, summary } from './openapi-fixtures';

/**
 * Two versions of a code-analysis API (Semgrep-like paths) built so that the diff between them is exactly the
 * change log of the spec's area C (docs/api-changelog.md), and nothing else.
 */
const deployment = pathParam('deploymentId');

function codeAnalysisApi(v: 1 | 2): Doc {
  const uint = (format: 'uint32' | 'uint64') => int(v === 1 ? format : 'int64');
  const dependencyFilter = obj(
    v === 1
      ? { ecosystem: { type: 'string' } }
      : { ecosystem: { type: 'string' }, includeArchived: { type: 'boolean' } },
  );
  const dependencyQuery = json(obj({ dependencyFilter, cursor: { type: 'string' } }));
  const scan = obj(
    { id: int('int64'), branch: { type: 'string' }, ...(v === 2 ? { is_partial_scan: { type: 'boolean' } } : {}) },
    ['id'],
  );
  const findingsSummary = obj({
    total: int('int64'),
    ...(v === 1 ? { sastFindings: int('int64'), scaFindings: int('int64') } : {}),
  });
  const deprecated = v === 2 ? { deprecated: true } : {};
  return document(
    {
      '/api/v1/deployments': {
        get: {
          parameters: [query('page', uint('uint32')), query('page_size', uint('uint32'))],
          responses: {
            '200': ok(
              obj({
                deployments: {
                  type: 'array',
                  items: obj({
                    id: uint('uint64'),
                    name: { type: 'string' },
                    findings_counts: obj({ total: uint('uint64') }),
                  }),
                },
              }),
            ),
          },
        },
      },
      '/api/v1/deployments/{deploymentId}/policies/{policyId}': {
        put: {
          ...deprecated,
          parameters: [deployment, pathParam('policyId', v === 1 ? 'uint64' : 'int64')],
          requestBody: json(obj({ mode: { type: 'string' } })),
          responses: { '200': ok(obj({ id: int('int64') })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/findings': {
        get: {
          ...deprecated,
          parameters: [deployment, query('limit', int('int64'))],
          responses: { '200': ok(obj({ findings: { type: 'array', items: obj({ id: int('int64') }) } })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/secrets': {
        get: {
          ...deprecated,
          parameters: [deployment],
          responses: { '200': ok(obj({ secrets: { type: 'array', items: obj({ id: int('int64') }) } })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/scans': {
        post: {
          parameters: [deployment],
          requestBody: json(obj({ repository: { type: 'string' } }, ['repository'])),
          responses: v === 1 ? { '200': ok(scan), '201': ok(scan, 'Created') } : { '201': ok(scan, 'Created') },
        },
      },
      '/api/v1/deployments/{deploymentId}/scans/search': {
        post: {
          parameters: [deployment],
          requestBody: json(
            obj({ branch: { type: 'string' }, ...(v === 2 ? { is_partial_scan: { type: 'boolean' } } : {}) }),
          ),
          responses: {
            '200': ok(obj({ scans: { type: 'array', items: { $ref: '#/components/schemas/Scan' } } })),
            ...(v === 2 ? { '202': { description: 'Search queued' } } : {}),
          },
        },
      },
      '/api/v1/deployments/{deploymentId}/sboms/export': {
        post: {
          parameters: [deployment],
          requestBody: json(
            obj({
              formatVersion: obj(
                v === 1 ? { format: { type: 'string' }, version: { type: 'string' } } : { format: { type: 'string' } },
              ),
            }),
          ),
          responses: { '200': ok(obj({ taskToken: { type: 'string' } })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/tickets': {
        post: {
          parameters: [deployment],
          requestBody: json(
            obj({
              issue_ids: { type: 'array', items: uint('uint64') },
              ...(v === 1 ? { deploymentSlug: { type: 'string' } } : {}),
            }),
          ),
          responses: { '200': ok(obj({ ticket_id: uint('uint64') })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/projects/{projectName}/summary': {
        get: {
          parameters: [deployment, { name: 'projectName', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': ok({ $ref: '#/components/schemas/FindingsSummary' }) },
        },
      },
      '/api/v1/deployments/{deploymentId}/dependencies': {
        post: {
          parameters: [deployment],
          requestBody: dependencyQuery,
          responses: { '200': ok(obj({ numDependencies: uint('uint32') })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/dependencies/repositories': {
        post: {
          parameters: [deployment],
          requestBody: dependencyQuery,
          responses: { '200': ok(obj({ cursor: { type: 'string' } })) },
        },
      },
      '/api/v1/deployments/{deploymentId}/dependencies/lockfile_issues': {
        post: {
          parameters: [deployment],
          requestBody: dependencyQuery,
          responses: { '200': ok(obj({ cursor: { type: 'string' } })) },
        },
      },
    },
    { schemas: { Scan: scan, FindingsSummary: findingsSummary } },
  );
}

const POST = 'POST';
describe('area C: the change log of the code-analysis API', () => {
  it('reports exactly the changes of area C, in its groups and kinds', async () => {
    const changes = summary(await changelog(codeAnalysisApi(1), codeAnalysisApi(2)));
    const breaking = (kind: string, method: string, path: string, description: string) => ({
      group: 'breaking',
      kind,
      method,
      path,
      description,
    });
    const potentially = (kind: string, method: string, path: string, description: string) => ({
      group: 'potentially-breaking',
      kind,
      method,
      path,
      description,
    });
    const format = (subject: string, from: string, suffix = '') =>
      `the integer format of ${subject} changed from \`${from}\` to \`int64\`${suffix}`;
    expect(changes).toEqual([
      breaking(
        'Removed',
        POST,
        '/api/v1/deployments/{deploymentId}/scans',
        'the success response with status 200 removed',
      ),
      breaking(
        'Added',
        POST,
        '/api/v1/deployments/{deploymentId}/scans/search',
        'the success response with status 202 added; optional request property `is_partial_scan` added; optional response property `scans[].is_partial_scan` added for status 200',
      ),
      breaking(
        'Removed',
        POST,
        '/api/v1/deployments/{deploymentId}/sboms/export',
        'request property `formatVersion.version` removed',
      ),
      breaking(
        'Removed',
        POST,
        '/api/v1/deployments/{deploymentId}/tickets',
        'request property `deploymentSlug` removed',
      ),
      breaking(
        'Removed',
        'GET',
        '/api/v1/deployments/{deploymentId}/projects/{projectName}/summary',
        'optional response property `sastFindings` removed for status 200',
      ),
      breaking(
        'Removed',
        'GET',
        '/api/v1/deployments/{deploymentId}/projects/{projectName}/summary',
        'optional response property `scaFindings` removed for status 200',
      ),
      potentially('Changed', 'GET', '/api/v1/deployments', format('query parameter `page`', 'uint32')),
      potentially('Changed', 'GET', '/api/v1/deployments', format('query parameter `page_size`', 'uint32')),
      potentially(
        'Changed',
        'GET',
        '/api/v1/deployments',
        format('response property `deployments[].id`', 'uint64', ' for status 200'),
      ),
      potentially(
        'Changed',
        'GET',
        '/api/v1/deployments',
        format('response property `deployments[].findings_counts.total`', 'uint64', ' for status 200'),
      ),
      potentially('Deprecated', 'PUT', '/api/v1/deployments/{deploymentId}/policies/{policyId}', 'endpoint deprecated'),
      potentially(
        'Changed',
        'PUT',
        '/api/v1/deployments/{deploymentId}/policies/{policyId}',
        format('path parameter `policyId`', 'uint64'),
      ),
      potentially('Deprecated', 'GET', '/api/v1/deployments/{deploymentId}/findings', 'endpoint deprecated'),
      potentially('Deprecated', 'GET', '/api/v1/deployments/{deploymentId}/secrets', 'endpoint deprecated'),
      potentially(
        'Changed',
        POST,
        '/api/v1/deployments/{deploymentId}/tickets',
        format('request property `issue_ids[]`', 'uint64'),
      ),
      potentially(
        'Changed',
        POST,
        '/api/v1/deployments/{deploymentId}/tickets',
        format('response property `ticket_id`', 'uint64', ' for status 200'),
      ),
      potentially(
        'Added',
        POST,
        '/api/v1/deployments/{deploymentId}/dependencies',
        'optional request property `dependencyFilter.includeArchived` added',
      ),
      potentially(
        'Changed',
        POST,
        '/api/v1/deployments/{deploymentId}/dependencies',
        format('response property `numDependencies`', 'uint32', ' for status 200'),
      ),
      potentially(
        'Added',
        POST,
        '/api/v1/deployments/{deploymentId}/dependencies/repositories',
        'optional request property `dependencyFilter.includeArchived` added',
      ),
      potentially(
        'Added',
        POST,
        '/api/v1/deployments/{deploymentId}/dependencies/lockfile_issues',
        'optional request property `dependencyFilter.includeArchived` added',
      ),
    ]);
  });

  it('writes Markdown grouped as area C: Breaking, then Potentially breaking, each by kind with method and path', async () => {
    const { toMarkdown } = await import('../src');
    const markdown = toMarkdown(await changelog(codeAnalysisApi(1), codeAnalysisApi(2)));
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# API changes',
      '## Breaking changes (6)',
      '### Removed',
      '### Added',
      '## Potentially breaking changes (14)',
      '### Added',
      '### Changed',
      '### Deprecated',
    ]);
    expect(markdown).toContain('- `PUT /api/v1/deployments/{deploymentId}/policies/{policyId}`: endpoint deprecated');
  });

  it('reports nothing between a document and itself', async () => {
    expect(await changelog(codeAnalysisApi(2), codeAnalysisApi(2))).toEqual([]);
  });
});
