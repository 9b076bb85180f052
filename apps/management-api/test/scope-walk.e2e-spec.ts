import { MANAGEMENT_SCOPES } from '@acme/oauth';
import openapi from '../openapi.json';
import { ManagementApp, startManagement } from './support';

type Operation = { 'x-required-scopes'?: string[] };
const operations = Object.entries(openapi.paths as Record<string, Record<string, Operation>>)
  .filter(([path]) => path.startsWith('/api/v2/'))
  .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation })));

/** Path parameters filled with well-formed ids that exist nowhere: the scope check answers before any lookup. */
const concrete = (path: string) =>
  path
    .replace('/api/v2', '')
    .replace(/\{(\w+)\}/g, (_, name: string) => (name === 'kid' ? 'no-such-kid' : `x_${name}`));

describe('every management route, walked from the OpenAPI document, refuses a token without its scope', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagement();
  }, 60_000);
  afterAll(() => app?.close());

  it('finds required scopes documented on every /api/v2 operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(23);
    const without = operations.filter(({ operation }) => !operation['x-required-scopes']?.length);
    expect(without.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  });

  it.each(
    operations.map(({ method, path, operation }) => [method.toUpperCase(), path, operation['x-required-scopes'] ?? []]),
  )(
    '%s %s: 403 insufficient_scope with every scope but %j, and past the scope check with one of them',
    async (method, path, required) => {
      const others = MANAGEMENT_SCOPES.filter((scope) => !(required as string[]).includes(scope)).join(' ');
      const denied = await app.api(concrete(path as string), {
        method: method as string,
        token: await app.token(others),
      });
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: `Insufficient scope, expected any of: ${(required as string[]).join(',')}`,
        errorCode: 'insufficient_scope',
      });
      for (const scope of required as string[]) {
        const allowed = await app.api(concrete(path as string), {
          method: method as string,
          token: await app.token(scope),
        });
        expect({ scope, refused: [401, 403].includes(allowed.status) }).toEqual({ scope, refused: false });
      }
    },
  );

  it("describes the four rate-limit-policy scopes as Auth0 does, in the served document's oauth2 scheme", async () => {
    const served = (await (await fetch(`${app.url}/docs/openapi.json`)).json()) as typeof openapi;
    const scopes = served.components.securitySchemes.oauth2.flows.clientCredentials.scopes as Record<string, string>;
    expect(['create', 'read', 'update', 'delete'].map((action) => scopes[`${action}:rate_limit_policies`])).toEqual([
      'Create Rate Limit Policies',
      'Read Rate Limit Policies',
      'Update Rate Limit Policies',
      'Delete Rate Limit Policies',
    ]);
  });
});
