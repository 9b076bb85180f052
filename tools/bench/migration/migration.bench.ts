/**
 * Migration benchmark: 1,000,000 documents (+5 records each) moved by the service with 2 worker processes,
 * against raw SQL moving the same rows in one transaction. Prints the status endpoint's progress every second
 * and the ratio of rates (target >= 0.5).
 *
 *   node -r @swc-node/register tools/bench/migration/migration.bench.ts [documents]
 *
 * Uses Postgres/Redis from DATABASE_URL/REDIS_URL (defaults: local); creates and drops its own database and
 * uses its own Redis prefix.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

const ROOT = path.resolve(__dirname, '../../..');
const DOCUMENTS = Number(process.argv[2] ?? 1_000_000);
const RECORDS_EACH = 5;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const SERVER_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const DB_NAME = `bench_migration_${randomBytes(4).toString('hex')}`;
const PREFIX = `bench:migration:${randomBytes(4).toString('hex')}`;
const TUNING = { MIGRATION_BATCH_SIZE: '5000', MIGRATION_SLICE_SIZE: '25000' };

const dbUrl = (() => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startService(role: string, port: number): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', 'apps/migration-worker/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...TUNING, PORT: String(port), MIGRATION_ROLE: role, DATABASE_URL: dbUrl, REDIS_URL, REDIS_PREFIX: PREFIX, ADMIN_TOKEN, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function json(url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (response.status >= 400) throw new Error(`${url}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not come up`);
}

async function main(): Promise<void> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  const children: ChildProcess[] = [];
  const db = new Client({ connectionString: dbUrl });
  try {
    const apiPort = await freePort();
    const api = `http://127.0.0.1:${apiPort}`;
    children.push(startService('api', apiPort));
    await waitUp(api);
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const workspace = await json(`${api}/admin/v1/workspaces`, { name: 'bench' }, auth);
    for (const organizationId of ['a', 'b']) await json(`${api}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, { organizationId }, auth);

    await db.connect();
    const keys = Object.fromEntries((await db.query(`SELECT "id", "key" FROM "migration"."organizations"`)).rows.map((r) => [r.id, r.key]));
    let t = Date.now();
    await db.query(
      `INSERT INTO "migration"."documents" ("organization_key", "id", "title", "content")
       SELECT $1, 'doc-' || g, 'Document ' || g, repeat('x', 200) FROM generate_series(1, $2::int) g`,
      [keys['a'], DOCUMENTS],
    );
    await db.query(
      `INSERT INTO "migration"."records" ("document_key", "id", "kind", "body")
       SELECT d."key", 'r' || r, CASE WHEN r % 2 = 0 THEN 'comment' ELSE 'annotation' END, jsonb_build_object('text', 'note ' || r)
       FROM "migration"."documents" d CROSS JOIN generate_series(1, ${RECORDS_EACH}) r`,
    );
    await db.query(`VACUUM ANALYZE "migration"."documents"`);
    await db.query(`VACUUM ANALYZE "migration"."records"`);
    log(`seeded ${DOCUMENTS} documents + ${DOCUMENTS * RECORDS_EACH} records in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // Baseline: the same rows moved a -> b by one UPDATE in one transaction (records follow by foreign key).
    t = Date.now();
    await db.query('BEGIN');
    const raw = await db.query(`UPDATE "migration"."documents" SET "organization_key" = $2 WHERE "organization_key" = $1`, [keys['a'], keys['b']]);
    await db.query('COMMIT');
    const rawSeconds = (Date.now() - t) / 1000;
    log(`raw SQL: ${raw.rowCount} documents in ${rawSeconds.toFixed(2)} s (${Math.round(DOCUMENTS / rawSeconds)} docs/s)`);
    await db.query(`VACUUM ANALYZE "migration"."documents"`);

    // Service: the same rows back b -> a through the API, moved by 2 worker processes.
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      children.push(startService('worker', port));
      await waitUp(`http://127.0.0.1:${port}`);
    }
    const headers = { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken };
    t = Date.now();
    const started = await json(`${api}/v2/organizations/documents/migrate`, { data: { organizationId: 'b', targetOrganizationId: 'a' } }, headers);
    const migrationId = started.result.data.migrationId;
    log(`start answered in ${Date.now() - t} ms: ${JSON.stringify(started.result.data)}`);
    let data;
    for (;;) {
      await sleep(1000);
      data = (await json(`${api}/v2/organizations/documents/migrate/status`, { data: { organizationId: 'a', migrationId } }, headers)).result.data;
      const elapsed = (Date.now() - t) / 1000;
      log(`  t=${elapsed.toFixed(1)}s status=${data.status} ${data.migratedDocuments}/${data.totalDocuments} (${Math.round(data.migratedDocuments / elapsed)} docs/s)`);
      if (data.status !== 'pending' && data.status !== 'in_progress') break;
    }
    if (data.status !== 'completed') throw new Error(`migration ended ${data.status}: ${data.failureReason}`);
    const serviceSeconds = (Date.parse(data.finishedAt) - Date.parse(data.createdAt)) / 1000;
    const check = (await db.query(`SELECT count(*)::int AS n FROM "migration"."documents" WHERE "organization_key" = $1`, [keys['a']])).rows[0].n;
    const records = (await db.query(`SELECT count(*)::int AS n FROM "migration"."records" r JOIN "migration"."documents" d ON d."key" = r."document_key" WHERE d."organization_key" = $1`, [keys['a']])).rows[0].n;
    log(`service (2 workers): ${data.migratedDocuments} documents in ${serviceSeconds.toFixed(2)} s (${Math.round(DOCUMENTS / serviceSeconds)} docs/s); in target: ${check} documents, ${records} records`);
    log(`ratio service/raw rate: ${(rawSeconds / serviceSeconds).toFixed(2)}x (target >= 0.5x)`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await sleep(1500);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
