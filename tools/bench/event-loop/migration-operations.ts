/**
 * migration-worker: the operator import of 10,000 documents x 5 records (beside a minimal pg script inserting
 * the same rows, for the ratio) and a migration start listing 10,000 ids. API role only, so started migrations
 * stay pending and nothing else runs in the process.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { freePort, localUrl, SERVICE_NODE_FLAGS, tsEntry, waitForHealth } from '../support/processes';
import { expectJson, ServiceContext, ServiceUnderTest } from './operation';

const DOCUMENTS = 10_000;
const RECORDS_EACH = 5;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

export const importDocuments = (prefix: string) =>
  Array.from({ length: DOCUMENTS }, (_, i) => ({
    id: `${prefix}-${i}`,
    title: `Document ${i}`,
    content: `content of document ${i} `.repeat(8),
    records: Array.from({ length: RECORDS_EACH }, (__, r) => ({
      id: `r${r}`,
      kind: r % 2 ? 'annotation' : 'comment',
      body: { text: `note ${r} on ${i}`, done: r % 3 === 0 },
    })),
  }));

type ImportDocument = ReturnType<typeof importDocuments>[number];

/** The baseline: the same rows by two multi-row INSERTs over unnest() arrays, in one transaction. */
async function rawImport(db: Client, organizationKey: string, documents: ImportDocument[]): Promise<void> {
  await db.query('BEGIN');
  const inserted = await db.query<{ key: string; id: string }>(
    `INSERT INTO "${MIGRATION_SCHEMA}"."documents" ("organization_key", "id", "title", "content")
     SELECT $1, t.id, t.title, t.content FROM unnest($2::text[], $3::text[], $4::text[]) AS t(id, title, content)
     RETURNING "key", "id"`,
    [organizationKey, documents.map((d) => d.id), documents.map((d) => d.title), documents.map((d) => d.content)],
  );
  const keyOf = new Map(inserted.rows.map((row) => [row.id, row.key]));
  const owner: string[] = [];
  const ids: string[] = [];
  const kinds: string[] = [];
  const bodies: string[] = [];
  documents.forEach((document) => {
    for (const record of document.records) {
      owner.push(keyOf.get(document.id) as string);
      ids.push(record.id);
      kinds.push(record.kind);
      bodies.push(JSON.stringify(record.body));
    }
  });
  await db.query(
    `INSERT INTO "${MIGRATION_SCHEMA}"."records" ("document_key", "id", "kind", "body")
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[])`,
    [owner, ids, kinds, bodies],
  );
  await db.query('COMMIT');
}

export async function startMigrationWorker(context: ServiceContext): Promise<ServiceUnderTest> {
  const database = await createBenchDatabase('bench_event_loop_migration');
  const prefix = benchRedisPrefix('bench:event-loop:migration');
  context.cleanups.push(
    () => database.drop(),
    () => deleteRedisPrefix(prefix),
  );
  const port = await freePort();
  context.processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/migration-worker/src/main.ts')], {
    PORT: String(port),
    MIGRATION_ROLE: 'api',
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN,
    MIGRATION_RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'warn',
  });
  const base = localUrl(port);
  await waitForHealth(base, 'the migration service');
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const workspace = await expectJson(`${base}/admin/v1/workspaces`, { body: { name: 'bench' }, headers: admin }, 201);
  const organizations = `${base}/admin/v1/workspaces/${workspace.workspaceId}/organizations`;
  let round = 0;
  const newOrganization = async () => {
    const organizationId = `org-${++round}`;
    await expectJson(organizations, { body: { organizationId }, headers: admin }, 201);
    return organizationId;
  };
  const db = new Client({ connectionString: database.url });
  await db.connect();
  context.cleanups.unshift(() => db.end());
  const organizationKey = async (id: string): Promise<string> => {
    const { rows } = await db.query<{ key: string }>(
      `SELECT "key" FROM "${MIGRATION_SCHEMA}"."organizations" WHERE "id" = $1`,
      [id],
    );
    if (!rows[0]) throw new Error(`organization ${id} not found`);
    return rows[0].key;
  };

  let importBody = '';
  let importUrl = '';
  let rawDocuments: ImportDocument[] = [];
  let rawKey = '';
  let migrateBody = '';
  await expectJson(organizations, { body: { organizationId: 'target' }, headers: admin }, 201);
  return {
    base,
    operations: [
      {
        name: 'import-10k',
        service: 'migration-worker',
        prepare: async () => {
          const organizationId = await newOrganization();
          importUrl = `${organizations}/${organizationId}/documents`;
          importBody = JSON.stringify({ documents: importDocuments(organizationId) });
          const rawOrganization = await newOrganization();
          rawDocuments = importDocuments(rawOrganization);
          rawKey = await organizationKey(rawOrganization);
        },
        run: async () => {
          const answer = await expectJson(importUrl, { body: importBody, headers: admin }, 201);
          if (answer.documents !== DOCUMENTS || answer.records !== DOCUMENTS * RECORDS_EACH)
            throw new Error(`import answered ${JSON.stringify(answer)}`);
        },
        compare: async (appMs) => {
          const started = performance.now();
          await rawImport(db, rawKey, rawDocuments);
          const rawMs = performance.now() - started;
          return `app ${appMs.toFixed(0)} ms, raw SQL ${rawMs.toFixed(0)} ms, ratio ${(appMs / rawMs).toFixed(2)}`;
        },
      },
      {
        name: 'migrate-10k-ids',
        service: 'migration-worker',
        prepare: async () => {
          const organizationId = await newOrganization();
          const documents = importDocuments(organizationId).map((d) => ({ ...d, records: d.records.slice(0, 1) }));
          await expectJson(
            `${organizations}/${organizationId}/documents`,
            { body: { documents }, headers: admin },
            201,
          );
          migrateBody = JSON.stringify({
            data: { organizationId, targetOrganizationId: 'target', documentIds: documents.map((d) => d.id) },
          });
        },
        run: async () => {
          const answer = await expectJson(
            `${base}/v2/organizations/documents/migrate`,
            {
              body: migrateBody,
              headers: { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken },
            },
            200,
          );
          if (answer.result?.data?.status !== 'pending') throw new Error(`start answered ${JSON.stringify(answer)}`);
        },
      },
    ],
  };
}
