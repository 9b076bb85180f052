import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestApp, TestApp, TestAppOptions } from './test-app';

export interface FoundationExpectations {
  /** The app's wire body for an unknown route (404). */
  notFoundBody: (response: { body: unknown; headers: Headers }) => void;
}

/** The operator basics every service must serve: health, metrics, docs, 404 shape, request ids. */
export function describeFoundation(options: TestAppOptions, expectations: FoundationExpectations): void {
  describe(`${options.service.name} foundation`, () => {
    let service: TestApp;
    beforeAll(async () => {
      service = await startTestApp(options);
    });
    afterAll(async () => service?.close());

    it('reports Postgres and Redis up on /health', async () => {
      const response = await fetch(`${service.url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'ok',
        details: { postgres: { status: 'up' }, redis: { status: 'up' } },
      });
    });

    it('splits liveness (/health/live) from readiness (/health/ready, as /health)', async () => {
      const live = await fetch(`${service.url}/health/live`);
      expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ok', details: { postgres: { status: 'up' } } });
    });

    it('serves Prometheus metrics including HTTP request durations', async () => {
      await fetch(`${service.url}/health`);
      const response = await fetch(`${service.url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).toContain('http_request_duration_seconds_bucket');
    });

    it('publishes a valid OpenAPI 3 document and Swagger UI', async () => {
      const document = (await (await fetch(`${service.url}/docs/openapi.json`)).json()) as { openapi: string };
      expect(document.openapi).toMatch(/^3\./);
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      const ui = await fetch(`${service.url}/docs`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('swagger-ui');
    });

    it('answers an unknown route with 404 in the app wire shape', async () => {
      const response = await fetch(`${service.url}/no/such/route`);
      expect(response.status).toBe(404);
      expectations.notFoundBody({ body: await response.json(), headers: response.headers });
    });

    it('echoes a caller request id and makes one otherwise', async () => {
      const given = await fetch(`${service.url}/health`, { headers: { 'x-request-id': 'abc-123' } });
      expect(given.headers.get('x-request-id')).toBe('abc-123');
      const made = await fetch(`${service.url}/health`);
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('hides the operator API unless ADMIN_TOKEN is set', async () => {
      const response = await fetch(`${service.url}/admin/v1/anything`, { headers: { authorization: 'Bearer x' } });
      expect(response.status).toBe(404);
      expect((await fetch(`${service.url}/docs/admin/openapi.json`)).status).toBe(404);
    });
  });
  describeOperatorSurface(options);
}

const OPERATOR_TOKEN = 'foundation-admin-token-0123456789';
const METRICS_TOKEN = 'foundation-metrics-token-0123456789';

type OpenApiDocument = { paths: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } };

/** What an anonymous caller learns of the operator surface: nothing (docs/decisions.md#client-addresses-and-the-operator-surface). */
function describeOperatorSurface(options: TestAppOptions): void {
  describe(`${options.service.name} operator surface`, () => {
    let service: TestApp;
    beforeAll(async () => {
      service = await startTestApp({
        ...options,
        env: { ...options.env, ADMIN_TOKEN: OPERATOR_TOKEN, METRICS_TOKEN },
      });
    });
    afterAll(async () => service?.close());

    const get = (path: string, token?: string) =>
      fetch(`${service.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const contract = () =>
      JSON.parse(
        readFileSync(join(__dirname, '../../../../../apps', options.service.name, 'openapi.json'), 'utf8'),
      ) as OpenApiDocument;

    it('the public document and Swagger UI list no operator route nor its schemas', async () => {
      const document = (await (await get('/docs/openapi.json')).json()) as OpenApiDocument;
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
      expect(JSON.stringify(document)).not.toContain('/admin/');
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      const ui = await (await get('/docs/swagger-ui-init.js')).text();
      expect(ui).toContain('openapi');
      expect(ui).not.toContain('/admin/');
      const yaml = await (await get('/docs/openapi.yaml')).text();
      expect(yaml).not.toContain('/admin/');
    });

    it('the operator document is served only with the operator token, and is the committed contract', async () => {
      for (const token of [undefined, 'wrong-token-0123456789', METRICS_TOKEN]) {
        const refused = await get('/docs/admin/openapi.json', token);
        expect(refused.status).toBe(401);
        expect(await refused.text()).not.toContain('/admin/v1');
      }
      const served = await get('/docs/admin/openapi.json', OPERATOR_TOKEN);
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual(contract());
    });

    it('/metrics answers only Authorization: Bearer $METRICS_TOKEN when it is set', async () => {
      for (const token of [undefined, 'wrong-token-0123456789', OPERATOR_TOKEN]) {
        const refused = await get('/metrics', token);
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(await refused.text()).not.toContain('process_cpu');
      }
      const scraped = await get('/metrics', METRICS_TOKEN);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_cpu_user_seconds_total');
    });
  });
}
