import SwaggerParser from '@apidevtools/swagger-parser';
import { ManagementApp, startManagement } from './support';

type Operation = {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string }>;
  'x-required-scopes'?: string[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe('the management OpenAPI document', () => {
  let app: ManagementApp;
  let document: Document;
  beforeAll(async () => {
    app = await startManagement();
    document = (await (await fetch(`${app.url}/docs/openapi.json`)).json()) as Document;
  });
  afterAll(async () => app?.close());

  it('labels the API version and marks the rate-limit policy routes Early Access, as Auth0 does', () => {
    expect((document as unknown as { info: { version: string } }).info.version).toBe('2.0');
    const policyOperations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v2/rate-limit-policies'))
      .flatMap(([, item]) => Object.values(item) as (Operation & { 'x-release-lifecycle'?: string })[]);
    expect(policyOperations).toHaveLength(5);
    for (const operation of policyOperations) expect(operation['x-release-lifecycle']).toBe('EA');
  });

  it('is a valid OpenAPI 3 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it.each([
    ['/api/v2/rate-limit-policies', 'get', 'read:rate_limit_policies', ['200', '400', '401', '403', '429']],
    ['/api/v2/rate-limit-policies', 'post', 'create:rate_limit_policies', ['201', '400', '401', '403', '409', '429']],
    ['/api/v2/rate-limit-policies/{id}', 'get', 'read:rate_limit_policies', ['200', '400', '401', '403', '404', '429']],
    [
      '/api/v2/rate-limit-policies/{id}',
      'patch',
      'update:rate_limit_policies',
      ['200', '400', '401', '403', '404', '429'],
    ],
    [
      '/api/v2/rate-limit-policies/{id}',
      'delete',
      'delete:rate_limit_policies',
      ['204', '400', '401', '403', '404', '429'],
    ],
    ['/api/v2/clients', 'get', 'read:clients', ['200', '400', '401', '403', '429']],
    ['/api/v2/clients', 'post', 'create:clients', ['201', '400', '401', '403', '409', '429']],
    ['/api/v2/clients/{id}', 'get', 'read:clients', ['200', '404']],
    ['/api/v2/clients/{id}', 'delete', 'delete:clients', ['204', '404']],
    ['/api/v2/client-grants', 'get', 'read:client_grants', ['200', '400']],
    ['/api/v2/client-grants', 'post', 'create:client_grants', ['201', '404', '409']],
    ['/api/v2/client-grants/{id}', 'get', 'read:client_grants', ['200', '404']],
    ['/api/v2/client-grants/{id}', 'delete', 'delete:client_grants', ['204', '404']],
  ])('documents %s %s with scope %s and its statuses', (path, method, scope, statuses) => {
    const operation = document.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(operation['x-required-scopes']).toEqual([scope]);
    expect(operation.security).toEqual(expect.arrayContaining([{ bearer: [] }, { oauth2: [scope] }]));
    for (const status of statuses) expect(Object.keys(operation.responses)).toContain(status);
  });

  it('names the list operation as the spec does, with its query parameters', () => {
    const list = document.paths['/api/v2/rate-limit-policies'].get;
    expect(list.operationId).toBe('get_rate-limit-policies');
    expect(list.parameters!.map((p) => p.name).sort()).toEqual([
      'consumer',
      'consumer_selector',
      'from',
      'resource',
      'take',
    ]);
  });

  it('documents the OAuth routes, the error bodies and the scope catalogue', () => {
    expect(Object.keys(document.paths['/oauth/token'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '429']),
    );
    expect(document.paths['/.well-known/jwks.json'].get).toBeDefined();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'ManagementErrorBody',
        'OAuthErrorBody',
        'RateLimitPolicyResponse',
        'RateLimitPolicyListResponse',
        'AllowConfiguration',
        'BlockOrLogConfiguration',
        'RedirectConfiguration',
        'CreateRateLimitPolicyRequest',
        'UpdateRateLimitPolicyRequest',
      ]),
    );
    const oauth2 = document.components.securitySchemes['oauth2'] as {
      flows: { clientCredentials: { scopes: Record<string, string> } };
    };
    expect(oauth2.flows.clientCredentials.scopes['read:rate_limit_policies']).toBe('Read Rate Limit Policies');
  });
});
