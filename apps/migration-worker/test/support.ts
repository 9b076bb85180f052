import { Client } from 'pg';
import { startTestApp, TestApp, TestAppOptions, waitFor } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { migrationService } from '../src/service';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

export const ADMIN_TOKEN = 'operator-token-for-tests-0123456789';

/** Fast worker timings for tests; files override what they measure. */
export const FAST_WORKER_ENV = {
  ADMIN_TOKEN,
  MIGRATION_JOB_BACKOFF_MS: '100',
  MIGRATION_LOCK_DURATION_MS: '5000',
  MIGRATION_STALLED_INTERVAL_MS: '2000',
  MIGRATION_RECONCILE_INTERVAL_MS: '1000',
  // Property tests fire requests fast; the limit has its own test.
  MIGRATION_RATE_LIMIT_PER_SECOND: '0',
};

export function startMigrationApp(
  env: Record<string, string> = {},
  shared: Partial<TestAppOptions> = {},
): Promise<TestApp> {
  return startTestApp({
    service: migrationService,
    module: (e) => AppModule.forRoot(e),
    env: { ...FAST_WORKER_ENV, ...env },
    ...shared,
  });
}

export interface Credentials {
  workspaceId: string;
  apiKey: string;
  authToken: string;
}

export interface JsonResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
  url: string,
  init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined && init.raw === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Operator API client. */
export const operator = (app: TestApp) => {
  const admin = (path: string, body?: unknown) =>
    call(`${app.url}/admin/v1${path}`, { body, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return {
    admin,
    async workspace(name = 'acme'): Promise<Credentials> {
      const response = await admin('/workspaces', { name });
      expect(response.status).toBe(201);
      return response.body as Credentials;
    },
    async organization(workspaceId: string, organizationId: string): Promise<void> {
      const response = await admin(`/workspaces/${workspaceId}/organizations`, { organizationId });
      expect(response.status).toBe(201);
    },
    async importDocuments(workspaceId: string, organizationId: string, documents: unknown[]): Promise<JsonResponse> {
      return admin(`/workspaces/${workspaceId}/organizations/${encodeURIComponent(organizationId)}/documents`, {
        documents,
      });
    },
    async stats(workspaceId: string, organizationId: string): Promise<{ documents: number; records: number }> {
      const response = await admin(
        `/workspaces/${workspaceId}/organizations/${encodeURIComponent(organizationId)}/stats`,
      );
      expect(response.status).toBe(200);
      return response.body;
    },
  };
};

/** Public API client bound to one workspace's credentials. */
export const client = (app: TestApp, credentials: Pick<Credentials, 'apiKey' | 'authToken'>) => {
  const headers = { 'x-service-api-key': credentials.apiKey, 'x-service-auth-token': credentials.authToken };
  return {
    start: (data: unknown) => call(`${app.url}/v2/organizations/documents/migrate`, { body: { data }, headers }),
    status: (organizationId: string, migrationId: string) =>
      call(`${app.url}/v2/organizations/documents/migrate/status`, {
        body: { data: { organizationId, migrationId } },
        headers,
      }),
    cancel: (organizationId: string, migrationId: string) =>
      call(`${app.url}/v2/organizations/documents/migrate/cancel`, {
        body: { data: { organizationId, migrationId } },
        headers,
      }),
  };
};

export const makeDocuments = (prefix: string, count: number, recordsEach = 2) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    title: `Document ${i}`,
    content: `content ${i}`,
    records: Array.from({ length: recordsEach }, (__, r) => ({
      id: `r${r}`,
      kind: r % 2 ? 'annotation' : 'comment',
      body: { text: `note ${r}` },
    })),
  }));

/** Direct SQL on the app's test database, for assertions and for holding row locks. */
export async function withDb<T>(app: TestApp, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: app.database.url });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export const countMigrations = (app: TestApp): Promise<number> =>
  withDb(
    app,
    async (db) =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${MIGRATION_SCHEMA}"."migrations"`)).rows[0]?.n ??
      -1,
  );

export async function waitForStatus(
  api: ReturnType<typeof client>,
  organizationId: string,
  migrationId: string,
  status: string,
  timeoutMs = 30000,
) {
  const response = await waitFor<JsonResponse | undefined>(
    async () => {
      const current = await api.status(organizationId, migrationId);
      return current.body?.result?.data?.status === status ? current : undefined;
    },
    { timeoutMs, intervalMs: 50, what: `migration ${migrationId} ${status}` },
  );
  return response?.body.result.data;
}
