import { Client } from 'pg';
import { startTestApp, TestApp } from '@acme/platform-testing';
import { AppModule } from '../../src/app.module';
import { rumService } from '../../src/service';
import { RUM_SCHEMA } from '@acme/rum-schema';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Starts an instance; pass `shared` (a first instance) to run a second one on the same Postgres and Redis. */
export function startRum(
  env: Record<string, string> = {},
  shared?: Pick<TestApp, 'database' | 'redisPrefix'>,
  override?: Parameters<typeof startTestApp>[0]['override'],
): Promise<TestApp> {
  return startTestApp({
    service: rumService,
    module: (e) => AppModule.forRoot(e),
    env: { ADMIN_TOKEN, ...env },
    database: shared?.database,
    redisPrefix: shared?.redisPrefix,
    override,
  });
}

async function send(
  app: TestApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export const admin = (app: TestApp, method: string, path: string, body?: unknown) =>
  send(app, method, `/admin/v1${path}`, body, { authorization: `Bearer ${ADMIN_TOKEN}` });

/** A public rules call: `route` like `rules/create`; `appKey` undefined sends no key. */
export const rum = (app: TestApp, route: string, appKey: string | undefined, body: unknown) =>
  send(
    app,
    'POST',
    `/rum/error-ingestion/${route}${appKey === undefined ? '' : `?app_key=${encodeURIComponent(appKey)}`}`,
    body,
  );

export const ingest = (app: TestApp, token: string | undefined, body: unknown) =>
  send(app, 'POST', '/rum/ingest/errors', body, token === undefined ? {} : { 'x-rum-client-token': token });

export interface Tenant {
  accountId: number;
  appKey: string;
  applicationId: string;
}

export async function createAccount(app: TestApp, name = 'acme'): Promise<{ accountId: number; appKey: string }> {
  const reply = await admin(app, 'POST', '/accounts', { name });
  expect(reply.status).toBe(201);
  return { accountId: reply.body.account_id, appKey: reply.body.app_key };
}

/** An account owning one application. */
export async function createTenant(app: TestApp, name = 'acme'): Promise<Tenant> {
  const account = await createAccount(app, name);
  const reply = await admin(app, 'POST', '/applications', { name: `${name}-web`, owner_account_id: account.accountId });
  expect(reply.status).toBe(201);
  return { ...account, applicationId: reply.body.application_id };
}

export async function clientToken(app: TestApp, applicationId: string): Promise<string> {
  const reply = await admin(app, 'POST', `/applications/${applicationId}/client-tokens`);
  expect(reply.status).toBe(201);
  return reply.body.client_token;
}

export const typeErrorRule = (name = 'drop type errors') => ({
  rule_name: name,
  description: 'noise from old browsers',
  filters: [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]],
});

/** The spec's failure envelope, with the header equal to the body's request id. */
export function expectFailure(reply: Reply, status: number, code: string, message: unknown): void {
  expect({ status: reply.status, code: reply.body?.error?.code, message: reply.body?.error?.message }).toEqual({
    status,
    code,
    message,
  });
  expect(Object.keys(reply.body).sort()).toEqual(['error', 'request_id']);
  expect(reply.headers.get('service-request-id')).toBe(reply.body.request_id);
}

export function expectSuccess(reply: Reply): any {
  expect(reply.status).toBe(200);
  expect(Object.keys(reply.body).sort()).toEqual(['data', 'request_id']);
  expect(typeof reply.body.request_id).toBe('string');
  expect(reply.headers.get('service-request-id')).toBe(reply.body.request_id);
  return reply.body.data;
}

/** InvalidParameter: the spec's text, then which parameter and why (bad-input.e2e-spec.ts pins the parameter). */
export const INVALID = [
  'InvalidParameter',
  expect.stringMatching(/^The specified parameter is not valid: \S.*\.$/),
] as const;
/** An unknown route names no parameter: the spec's text alone. */
export const UNKNOWN_ROUTE = ['InvalidParameter', 'The specified parameter is not valid.'] as const;
export const UNAUTHORIZED = ['Unauthorized', 'You are unauthorized.'] as const;
export const TOO_FREQUENT = ['RequestTooFrequently', 'Request too frequently.'] as const;
export const INTERNAL = ['InternalError', 'An internal error was encountered and reported; retry later.'] as const;

/** Rows of one table of the rum schema, read straight from Postgres. */
export async function countRows(app: TestApp, table: string): Promise<number> {
  const client = new Client({ connectionString: app.database.url });
  await client.connect();
  try {
    const result = await client.query(`SELECT count(*)::int AS n FROM "${RUM_SCHEMA}"."${table}"`);
    return result.rows[0].n as number;
  } finally {
    await client.end();
  }
}
