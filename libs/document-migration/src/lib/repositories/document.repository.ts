import { Injectable } from '@nestjs/common';
import { yieldToEventLoop } from '@acme/platform-errors';
import { firstRow, ReadReplicas } from '@acme/platform-persistence';
import { Queryable, TABLES } from './migration-tables';

export interface ImportedRecord {
  id: string;
  kind: string;
  body: Record<string, unknown>;
}

export interface ImportedDocument {
  id: string;
  title: string;
  content?: string;
  records?: ImportedRecord[];
}

export interface OrganizationStats {
  documents: number;
  records: number;
}

export interface DocumentKeyRange {
  total: number;
  minKey: string | null;
  maxKey: string | null;
}

/** One batch of a slice: documents of `sourceKey` with keys in (afterKey, upToKey], at most `limit` of them. */
export interface MoveBatch {
  migrationId: string;
  /** `documents`: only the documents the migration holds; `organization`: every document in the range. */
  scope: 'organization' | 'documents';
  sourceKey: string;
  targetKey: string;
  afterKey: string;
  upToKey: string;
  limit: number;
}

/** Documents per import statement: ~6,000 rows with their records, a few ms of parameter building each. */
export const IMPORT_BATCH_DOCUMENTS = 1000;

/** Column arrays of one import batch; a record names its document by id (unique within the organization). */
function importBatchParameters(documents: ImportedDocument[]): unknown[] {
  const ids: string[] = [];
  const titles: string[] = [];
  const contents: string[] = [];
  const owners: string[] = [];
  const recordIds: string[] = [];
  const kinds: string[] = [];
  const bodies: string[] = [];
  for (const document of documents) {
    ids.push(document.id);
    titles.push(document.title);
    contents.push(document.content ?? '');
    for (const record of document.records ?? []) {
      owners.push(document.id);
      recordIds.push(record.id);
      kinds.push(record.kind);
      bodies.push(JSON.stringify(record.body));
    }
  }
  return [ids, titles, contents, owners, recordIds, kinds, bodies];
}

/**
 * Documents and their records. Every method takes an organization key, which only
 * OrganizationRepository.findKey hands out (scoped to a workspace), or a migration that already holds them.
 */
@Injectable()
export class DocumentRepository {
  constructor(private readonly replicas: ReadReplicas) {}

  /**
   * Inserts documents and their records in batches of `IMPORT_BATCH_DOCUMENTS`, one multi-row statement each over
   * parameter arrays, yielding to the event loop between batches (docs/decisions.md#big-bodies-are-checked-in-chunks).
   * Throws the driver's unique violation on a duplicate id; the caller's transaction makes it all or nothing.
   */
  async insertWithRecords(
    manager: Queryable,
    organizationKey: string,
    documents: ImportedDocument[],
  ): Promise<OrganizationStats> {
    const inserted: OrganizationStats = { documents: 0, records: 0 };
    for (let start = 0; start < documents.length; start += IMPORT_BATCH_DOCUMENTS) {
      if (start > 0) await yieldToEventLoop();
      const rows: OrganizationStats[] = await manager.query(
        `WITH docs AS (
           INSERT INTO ${TABLES.documents} ("organization_key", "id", "title", "content")
           SELECT $1, d."id", d."title", d."content" FROM unnest($2::text[], $3::text[], $4::text[]) AS d("id", "title", "content")
           RETURNING "key", "id"
         ), recs AS (
           INSERT INTO ${TABLES.records} ("document_key", "id", "kind", "body")
           SELECT docs."key", r."id", r."kind", r."body"
           FROM unnest($5::text[], $6::text[], $7::text[], $8::jsonb[]) AS r("document_id", "id", "kind", "body")
           JOIN docs ON docs."id" = r."document_id"
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM docs)::int AS "documents", (SELECT count(*) FROM recs)::int AS "records"`,
        [organizationKey, ...importBatchParameters(documents.slice(start, start + IMPORT_BATCH_DOCUMENTS))],
      );
      const counts = firstRow(rows);
      inserted.documents += counts.documents;
      inserted.records += counts.records;
    }
    return inserted;
  }

  /** Counts tolerate replication lag: a read replica answers when there is one. */
  async countInOrganization(organizationKey: string): Promise<OrganizationStats> {
    const rows: OrganizationStats[] = await this.replicas.read((db) =>
      db.query(
        `SELECT (SELECT count(*) FROM ${TABLES.documents} WHERE "organization_key" = $1)::int AS "documents",
                (SELECT count(*) FROM ${TABLES.records} r JOIN ${TABLES.documents} d ON d."key" = r."document_key"
                  WHERE d."organization_key" = $1)::int AS "records"`,
        [organizationKey],
      ),
    );
    return firstRow(rows);
  }

  /**
   * Keys of the listed documents found in the organization, ascending; FOR SHARE, so none can move meanwhile.
   * One row of text rather than a row per document: 10,000 rows took the event loop tens of ms to read.
   */
  async lockKeysByIds(manager: Queryable, organizationKey: string, documentIds: string[]): Promise<string[]> {
    const rows: { keys: string | null }[] = await manager.query(
      `WITH locked AS (
         SELECT "key" FROM ${TABLES.documents} WHERE "organization_key" = $1 AND "id" = ANY($2::text[]) FOR SHARE
       )
       SELECT string_agg("key"::text, ',' ORDER BY "key") AS "keys" FROM locked`,
      [organizationKey, documentIds],
    );
    const keys = firstRow(rows).keys;
    return keys ? keys.split(',') : [];
  }

  /** The listed ids with no document in the organization, in list order (for the NOT_FOUND answer). */
  async missingIds(manager: Queryable, organizationKey: string, documentIds: string[]): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT l."id" FROM unnest($2::text[]) WITH ORDINALITY AS l("id", "n")
       WHERE NOT EXISTS (SELECT 1 FROM ${TABLES.documents} d WHERE d."organization_key" = $1 AND d."id" = l."id")
       ORDER BY l."n"`,
      [organizationKey, documentIds],
    );
    return rows.map((row) => row.id);
  }

  async keyRange(manager: Queryable, organizationKey: string): Promise<DocumentKeyRange> {
    const rows: { total: number; min: string | null; max: string | null }[] = await manager.query(
      `SELECT count(*)::int AS "total", min("key")::text AS "min", max("key")::text AS "max" FROM ${TABLES.documents} WHERE "organization_key" = $1`,
      [organizationKey],
    );
    const { total, min, max } = firstRow(rows);
    return { total, minKey: min, maxKey: max };
  }

  /** Moves one batch to the target organization (records follow by foreign key); answers how many and the last key. */
  async moveBatch(manager: Queryable, batch: MoveBatch): Promise<{ moved: number; lastKey: string | null }> {
    const candidates =
      batch.scope === 'organization'
        ? `SELECT d."key" FROM ${TABLES.documents} d
           WHERE d."organization_key" = $1 AND d."key" > $2 AND d."key" <= $3
           ORDER BY d."key" LIMIT $4 FOR UPDATE`
        : `SELECT d."key" FROM ${TABLES.migrationHolds} h JOIN ${TABLES.documents} d ON d."key" = h."document_key"
           WHERE h."migration_id" = $6 AND h."document_key" > $2 AND h."document_key" <= $3 AND d."organization_key" = $1
           ORDER BY d."key" LIMIT $4 FOR UPDATE OF d`;
    const params: unknown[] = [batch.sourceKey, batch.afterKey, batch.upToKey, batch.limit, batch.targetKey];
    if (batch.scope === 'documents') params.push(batch.migrationId);
    const rows: { n: number; last: string | null }[] = await manager.query(
      `WITH batch AS (${candidates}),
       moved AS (UPDATE ${TABLES.documents} d SET "organization_key" = $5 FROM batch WHERE d."key" = batch."key" RETURNING d."key")
       SELECT count(*)::int AS "n", max("key")::text AS "last" FROM moved`,
      params,
    );
    const { n, last } = firstRow(rows);
    return { moved: n, lastKey: last };
  }
}
