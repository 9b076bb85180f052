/**
 * Migration benchmark: 1,000,000 documents (+5 records each) moved by the service with 2 worker processes,
 * against raw SQL moving the same rows in one transaction. Prints the status endpoint's progress every second
 * and the ratio of rates (target >= 0.5).
 *
 *   node -r @swc-node/register tools/bench/migration/migration.bench.ts [documents] [--tracing RATIO]
 *
 * --tracing RATIO runs every service process with tracing on (OTEL_TRACES_SAMPLER=parentbased_traceidratio at
 * RATIO), exporting to an OTLP/HTTP sink in this process. A migration is one trace or none: the request's draw
 * decides for its jobs, so at 1 every migration is traced, and the cost at 10 % is a tenth of that.
 *
 * Uses Postgres/Redis from DATABASE_URL/REDIS_URL (defaults: local); creates and drops its own database and
 * uses its own Redis prefix.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { benchRedisPrefix, createBenchDatabase, REDIS_URL } from '../support/database';
import { fetchJson as json } from '../support/load';
import { sampledTracingEnv, startOtlpSink } from '../support/otlp-sink';
import { freePort, localUrl, Processes, sleep, tsEntry, waitForHealth } from '../support/processes';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

const DOCUMENTS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const TRACING = process.argv.includes('--tracing') ? process.argv[process.argv.indexOf('--tracing') + 1] : undefined;
const RECORDS_EACH = 5;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const PREFIX = benchRedisPrefix('bench:migration');
const TUNING = { MIGRATION_BATCH_SIZE: '5000', MIGRATION_SLICE_SIZE: '25000' };
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_migration');
  const processes = new Processes();
  const sink = TRACING === undefined ? undefined : await startOtlpSink();
  const tracing = sink ? sampledTracingEnv(sink.url, String(TRACING)) : {};
  const startService = async (role: string): Promise<string> => {
    const port = await freePort();
    processes.start(tsEntry('apps/migration-worker/src/main.ts'), {
      ...TUNING,
      ...tracing,
      PORT: String(port),
      MIGRATION_ROLE: role,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: PREFIX,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
    });
    await waitForHealth(localUrl(port), `the migration service (${role})`);
    return localUrl(port);
  };
  const db = new Client({ connectionString: database.url });
  try {
    const api = await startService('api');
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const workspace = await json(`${api}/admin/v1/workspaces`, { name: 'bench' }, auth);
    for (const organizationId of ['a', 'b'])
      await json(`${api}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, { organizationId }, auth);

    await db.connect();
    const keys = Object.fromEntries(
      (await db.query(`SELECT "id", "key" FROM "${MIGRATION_SCHEMA}"."organizations"`)).rows.map((r) => [r.id, r.key]),
    );
    let t = Date.now();
    await db.query(
      `INSERT INTO "${MIGRATION_SCHEMA}"."documents" ("organization_key", "id", "title", "content")
       SELECT $1, 'doc-' || g, 'Document ' || g, repeat('x', 200) FROM generate_series(1, $2::int) g`,
      [keys['a'], DOCUMENTS],
    );
    await db.query(
      `INSERT INTO "${MIGRATION_SCHEMA}"."records" ("document_key", "id", "kind", "body")
       SELECT d."key", 'r' || r, CASE WHEN r % 2 = 0 THEN 'comment' ELSE 'annotation' END, jsonb_build_object('text', 'note ' || r)
       FROM "${MIGRATION_SCHEMA}"."documents" d CROSS JOIN generate_series(1, ${RECORDS_EACH}) r`,
    );
    await db.query(`VACUUM ANALYZE "${MIGRATION_SCHEMA}"."documents"`);
    await db.query(`VACUUM ANALYZE "${MIGRATION_SCHEMA}"."records"`);
    log(
      `seeded ${DOCUMENTS} documents + ${DOCUMENTS * RECORDS_EACH} records in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );

    // Baseline: the same rows moved a -> b by one UPDATE in one transaction (records follow by foreign key).
    t = Date.now();
    await db.query('BEGIN');
    const raw = await db.query(
      `UPDATE "${MIGRATION_SCHEMA}"."documents" SET "organization_key" = $2 WHERE "organization_key" = $1`,
      [keys['a'], keys['b']],
    );
    await db.query('COMMIT');
    const rawSeconds = (Date.now() - t) / 1000;
    log(
      `raw SQL: ${raw.rowCount} documents in ${rawSeconds.toFixed(2)} s (${Math.round(DOCUMENTS / rawSeconds)} docs/s)`,
    );
    await db.query(`VACUUM ANALYZE "${MIGRATION_SCHEMA}"."documents"`);

    // Service: the same rows back b -> a through the API, moved by 2 worker processes.
    for (let i = 0; i < 2; i++) await startService('worker');
    const headers = { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken };
    t = Date.now();
    const started = await json(
      `${api}/v2/organizations/documents/migrate`,
      { data: { organizationId: 'b', targetOrganizationId: 'a' } },
      headers,
    );
    const migrationId = started.result.data.migrationId;
    log(`start answered in ${Date.now() - t} ms: ${JSON.stringify(started.result.data)}`);
    let data;
    for (;;) {
      await sleep(1000);
      data = (
        await json(
          `${api}/v2/organizations/documents/migrate/status`,
          { data: { organizationId: 'a', migrationId } },
          headers,
        )
      ).result.data;
      const elapsed = (Date.now() - t) / 1000;
      log(
        `  t=${elapsed.toFixed(1)}s status=${data.status} ${data.migratedDocuments}/${data.totalDocuments} (${Math.round(data.migratedDocuments / elapsed)} docs/s)`,
      );
      if (data.status !== 'pending' && data.status !== 'in_progress') break;
    }
    if (data.status !== 'completed') throw new Error(`migration ended ${data.status}: ${data.failureReason}`);
    const serviceSeconds = (Date.parse(data.finishedAt) - Date.parse(data.createdAt)) / 1000;
    const check = (
      await db.query(`SELECT count(*)::int AS n FROM "${MIGRATION_SCHEMA}"."documents" WHERE "organization_key" = $1`, [
        keys['a'],
      ])
    ).rows[0].n;
    const records = (
      await db.query(
        `SELECT count(*)::int AS n FROM "${MIGRATION_SCHEMA}"."records" r JOIN "${MIGRATION_SCHEMA}"."documents" d ON d."key" = r."document_key" WHERE d."organization_key" = $1`,
        [keys['a']],
      )
    ).rows[0].n;
    log(
      `service (2 workers): ${data.migratedDocuments} documents in ${serviceSeconds.toFixed(2)} s (${Math.round(DOCUMENTS / serviceSeconds)} docs/s); in target: ${check} documents, ${records} records`,
    );
    log(`ratio service/raw rate: ${(rawSeconds / serviceSeconds).toFixed(2)}x (target >= 0.5x)`);
    if (sink) log(`tracing on at ${TRACING}: ${sink.stats.exports} exports, ${(sink.stats.bytes / 1e6).toFixed(2)} MB`);
  } finally {
    await processes.stopAll(1500);
    sink?.close();
    await db.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
