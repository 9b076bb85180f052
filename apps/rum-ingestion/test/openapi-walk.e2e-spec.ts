import { join } from 'node:path';
import {
  TestApp,
  readDereferencedOpenApi,
  requestWithOversizedHeaders,
  walkOpenApiWithHostileInput,
} from '@acme/platform-testing';
import {
  admin,
  ADMIN_TOKEN,
  clientToken,
  createTenant,
  expectFailure,
  ingest,
  INVALID,
  rum,
  startRum,
  typeErrorRule,
} from './support/rum-client';

/** Every operation of the committed OpenAPI contract, fed hostile values one input at a time: never a 5xx. */
describe('OpenAPI walk with hostile input', () => {
  let app: TestApp;

  beforeAll(async () => {
    const unlimited = '1000000';
    app = await startRum({
      RUM_CREATE_LIMIT_PER_SECOND: unlimited,
      RUM_CREATE_LIMIT_PER_MINUTE: unlimited,
      RUM_HISTORY_LIMIT_PER_SECOND: unlimited,
      RUM_HISTORY_LIMIT_PER_MINUTE: unlimited,
    });
  });
  afterAll(async () => app?.close());

  it('answers every hostile request of every operation with less than 500', async () => {
    const tenant = await createTenant(app);
    const token = await clientToken(app, tenant.applicationId);
    const document = await readDereferencedOpenApi(join(__dirname, '../openapi.json'));
    const report = await walkOpenApiWithHostileInput({
      baseUrl: app.url,
      document,
      headers: (_method, path): Record<string, string> =>
        path.startsWith('/admin/') ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { 'x-rum-client-token': token },
      query: (_method, path): Record<string, string> =>
        path.startsWith('/rum/error-ingestion/') ? { app_key: tenant.appKey } : {},
      pathValues: { id: tenant.applicationId, accountId: String(tenant.accountId) },
    });
    expect(report.operations.length).toBe(Object.values(document.paths).flatMap((item) => Object.keys(item)).length);
    expect(report.requests).toBeGreaterThan(report.operations.length * 10);
    expect(report.findings).toEqual([]);
  }, 600_000);

  it('refuses NUL in rules and operator routes with InvalidParameter, but keeps ingested events with U+FFFD', async () => {
    const tenant = await createTenant(app, 'nul');
    const created = await rum(app, 'rules/create', tenant.appKey, { ...typeErrorRule('a\u0000b') });
    expectFailure(created, 400, 'InvalidParameter', expect.stringContaining(': rule_name must not contain NUL'));
    expectFailure(
      await admin(app, 'POST', '/accounts', { name: 'x\u0000' }),
      400,
      'InvalidParameter',
      expect.stringContaining(': name must not contain NUL'),
    );
    expectFailure(await rum(app, 'rules/list', 'key\u0000', {}), 400, ...INVALID);
    const token = await clientToken(app, tenant.applicationId);
    const ingested = await ingest(app, token, { events: [{ error: { message: 'nul \u0000 and \ud800 kept' } }] });
    expect(ingested.status).toBe(200);
  });

  it("answers headers over Node's limit with the Flashduty failure envelope", async () => {
    const response = await requestWithOversizedHeaders(app.url, '/rum/error-ingestion/rules/list');
    expect(response).toEqual({
      status: 400,
      contentType: 'application/json; charset=utf-8',
      body: {
        request_id: expect.any(String),
        error: {
          code: 'InvalidParameter',
          message: 'The specified parameter is not valid: The request headers are too large.',
        },
      },
    });
  });
});
