import { Client } from 'pg';
import { join } from 'node:path';
import { createTestDatabase, createTestRedisPrefix, testRedisUrl, TestDatabase } from '@acme/platform-test-infra';
import { freePort, ROOT, RunningService, startService, waitHealthy } from './built-service';

export interface SourceService {
  url: string;
  database: TestDatabase;
  service: RunningService;
  /** Every write to the service's tables fails from now on (a trigger raises), so handlers hit the 500 path. */
  refuseWrites(): Promise<void>;
  /** Drops the database under the running service (connections terminated): the dead-database path. */
  killDatabase(): Promise<void>;
  stop(): Promise<string>;
}

const REFUSE_WRITES = `
CREATE OR REPLACE FUNCTION public.log_scan_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'write refused by the log-scan test'; END $$;
DO $$ DECLARE t record; BEGIN
  -- Partitions inherit the trigger of their partitioned table.
  FOR t IN SELECT n.nspname AS schemaname, c.relname AS tablename FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
             AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'public', 'pg_toast') AND c.relname <> 'typeorm_migrations' LOOP
    EXECUTE format('CREATE TRIGGER log_scan_refuse BEFORE INSERT OR UPDATE OR DELETE ON %I.%I FOR EACH ROW EXECUTE FUNCTION public.log_scan_refuse()', t.schemaname, t.tablename);
  END LOOP;
END $$;`;

/**
 * Runs one service from source, output kept: on a database of its own on the shared server, unless `env` names
 * a DATABASE_URL (then that database is used and left alone); LOG_LEVEL trace unless `env` says otherwise.
 */
export async function startServiceFromSource(app: string, env: Record<string, string>): Promise<SourceService> {
  const given = env['DATABASE_URL'];
  const database: TestDatabase = given
    ? { name: new URL(given).pathname.slice(1), url: given, drop: async () => undefined }
    : await createTestDatabase(`src_${app}`);
  const port = await freePort();
  const service = startService(join(ROOT, 'apps', app, 'src/main.ts'), {
    NODE_OPTIONS: '-r @swc-node/register',
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: createTestRedisPrefix(`src-${app}`),
    LOG_LEVEL: 'trace',
    // No load balancer to drain for: stop at once unless a test measures the drain.
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  });
  await waitHealthy(service, port, 120_000);
  const sql = async (text: string) => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    service,
    refuseWrites: () => sql(REFUSE_WRITES),
    killDatabase: () => database.drop(),
    async stop() {
      await service.stop();
      await database.drop();
      return service.output();
    },
  };
}

export async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : text;
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers };
}

/** What a log may never hold: each secret in clear, and anything shaped like a stored digest. */
export function secretFindings(output: string, secrets: string[]): string[] {
  const findings = secrets
    .filter((secret) => secret.length >= 8 && output.includes(secret))
    .map((secret) => `secret in clear: ${secret.slice(0, 6)}…`);
  if (/scrypt\$/.test(output)) findings.push('a scrypt password digest');
  const hex = /\b[0-9a-f]{64}\b/.exec(output);
  if (hex) findings.push(`a 64-hex digest or token: ${hex[0].slice(0, 8)}…`);
  if (/"parameters"\s*:/.test(output)) findings.push('query parameters');
  return findings;
}

export const OUTAGE_BOOTSTRAP = {
  id: 'outage',
  secret: 'outage-secret-0123456789abcdef',
  audience: 'https://tenant.test/api/v2/',
};

export interface FourServices {
  management: SourceService;
  community: SourceService;
  rum: SourceService;
  migration: SourceService;
}

/** The four services side by side on `env`, each with its own extra variables (`extra[app]`). */
export async function startFourServices(
  env: Record<string, string>,
  extra: Partial<Record<keyof FourServices, Record<string, string>>> = {},
): Promise<FourServices> {
  const management = {
    MANAGEMENT_BOOTSTRAP_CLIENT_ID: OUTAGE_BOOTSTRAP.id,
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: OUTAGE_BOOTSTRAP.secret,
    PUBLIC_URL: 'https://tenant.test',
  };
  const started = await Promise.allSettled([
    startServiceFromSource('management-api', { ...env, ...management, ...extra.management }),
    startServiceFromSource('community-api', { ...env, ...extra.community }),
    startServiceFromSource('rum-ingestion', { ...env, ...extra.rum }),
    startServiceFromSource('migration-worker', { ...env, ...extra.migration }),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // The caller never gets the ones that did start, so they are stopped here, not left running past the test.
    await Promise.all(started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    throw failed.reason;
  }
  const [m, c, r, g] = started.map((result) => (result as PromiseFulfilledResult<SourceService>).value);
  return { management: m, community: c, rum: r, migration: g };
}
