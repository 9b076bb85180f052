import { join } from 'node:path';
import {
  readDereferencedOpenApi,
  requestWithOversizedHeaders,
  walkOpenApiWithHostileInput,
} from '@acme/platform-testing';
import { ManagementApp, startManagement } from './support';

/** Every operation of the committed OpenAPI contract, fed hostile values one input at a time: never a 5xx. */
describe('OpenAPI walk with hostile input', () => {
  let app: ManagementApp;

  beforeAll(async () => {
    app = await startManagement();
  });
  afterAll(async () => app?.close());

  it('answers every hostile request of every operation with less than 500', async () => {
    const token = await app.token();
    const created = await app.api('/clients', { method: 'POST', body: { name: 'walk target' } });
    const clientId = ((await created.json()) as { client_id: string }).client_id;
    const document = await readDereferencedOpenApi(join(__dirname, '../openapi.json'));
    const report = await walkOpenApiWithHostileInput({
      baseUrl: app.url,
      document,
      headers: () => ({ authorization: `Bearer ${token}` }),
      pathValues: { client_id: clientId, id: clientId },
    });
    expect(report.operations.length).toBe(Object.values(document.paths).flatMap((item) => Object.keys(item)).length);
    expect(report.requests).toBeGreaterThan(report.operations.length * 10);
    expect(report.findings).toEqual([]);
  }, 600_000);

  it('refuses NUL, lone surrogates and deep nesting with the Auth0 400 of where they were found', async () => {
    const errorCode = async (response: Response) => {
      expect(response.status).toBe(400);
      return ((await response.json()) as { errorCode: string }).errorCode;
    };
    expect(await errorCode(await app.api('/clients', { method: 'POST', body: { name: 'a\u0000b' } }))).toBe(
      'invalid_body',
    );
    expect(await errorCode(await app.api('/clients', { method: 'POST', body: '{"name":"\\ud800"}' }))).toBe(
      'invalid_body',
    );
    expect(
      await errorCode(await app.api('/clients', { method: 'POST', body: `${'['.repeat(100)}${']'.repeat(100)}` })),
    ).toBe('invalid_body');
    expect(await errorCode(await app.api('/rate-limit-policies/%00'))).toBe('invalid_uri');
    expect(await errorCode(await app.api('/client-grants/a%00b'))).toBe('invalid_uri');
    expect(await errorCode(await app.api('/client-grants?audience=%00'))).toBe('invalid_query_string');
    const token = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: 'x\u0000',
        client_secret: 's',
        audience: 'a',
      }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({
      error: 'invalid_request',
      error_description: 'client_id must not contain NUL or unpaired surrogate characters',
    });
  });

  it("answers headers over Node's limit in the Auth0 shape, not with a bare 431", async () => {
    expect(await requestWithOversizedHeaders(app.url, '/api/v2/clients')).toEqual({
      status: 431,
      contentType: 'application/json; charset=utf-8',
      body: {
        statusCode: 431,
        error: 'Request Header Fields Too Large',
        message: 'The request headers are too large.',
        errorCode: 'headers_too_large',
      },
    });
  });
});
