import { join } from 'node:path';
import { readDereferencedOpenApi, walkOpenApiWithHostileInput } from '@acme/platform-testing';
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
});
