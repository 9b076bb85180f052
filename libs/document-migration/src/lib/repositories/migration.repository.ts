import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows, firstRow, isUuid } from '@acme/platform-persistence';
import { MigrationState, statesAccepting, UNFINISHED_STATES } from '../migration-state';
import { Queryable, TABLES } from './migration-tables';

export type MigrationScope = 'organization' | 'documents';

export interface NewMigration {
  id: string;
  workspaceId: string;
  sourceKey: string;
  targetKey: string;
  scope: MigrationScope;
  totalDocuments: number;
}

/** A migration as its workspace sees it: organizations by their public ids, progress summed over its slices. */
export interface MigrationRecord {
  id: string;
  status: MigrationState;
  sourceOrganizationId: string;
  targetOrganizationId: string;
  totalDocuments: number;
  movedDocuments: number;
  failureReason: string | null;
  cancelledBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

interface MigrationRow {
  id: string;
  status: MigrationState;
  source_id: string;
  target_id: string;
  total_documents: number;
  moved: number;
  failure_reason: string | null;
  cancelled_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface MigrationProgress {
  status: MigrationState;
  totalDocuments: number;
  movedDocuments: number;
  openSlices: number;
}

/**
 * Migrations and their holds. Reads and changes a client asks for are scoped to its workspace; the worker's
 * (start, progress, finish) go by migration id alone, the id having come from a job the API created.
 */
@Injectable()
export class MigrationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the migration `pending`; answers its sequence number (the role of its target holds). */
  async insert(manager: Queryable, migration: NewMigration): Promise<string> {
    const rows: { seq: string }[] = await manager.query(
      `INSERT INTO ${TABLES.migrations} ("id", "workspace_id", "source_organization_key", "target_organization_key", "scope", "total_documents")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING "seq"`,
      [
        migration.id,
        migration.workspaceId,
        migration.sourceKey,
        migration.targetKey,
        migration.scope,
        migration.totalDocuments,
      ],
    );
    return firstRow(rows).seq;
  }

  /**
   * Holds: (organization, key range, role). Roles: whole-organization source (-inf,inf) conflicts with
   * everything on that organization; a listed document's source hold [0,1) conflicts with the same document
   * held as source; a target hold [seq+1,seq+2) conflicts only with whole-organization sources, which would
   * otherwise sweep up documents arriving mid-way. Overlap throws the driver's exclusion violation.
   */
  async holdWholeOrganization(
    manager: Queryable,
    migrationId: string,
    seq: string,
    sourceKey: string,
    targetKey: string,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${TABLES.migrationHolds} ("migration_id", "organization_key", "keys", "roles")
       VALUES ($1, $2, '(,)', '(,)'), ($1, $3, '(,)', int8range($4::bigint + 1, $4::bigint + 2))`,
      [migrationId, sourceKey, targetKey, seq],
    );
  }

  /** Holds for listed documents (see holdWholeOrganization). */
  async holdDocuments(
    manager: Queryable,
    migrationId: string,
    seq: string,
    sourceKey: string,
    targetKey: string,
    documentKeys: string[],
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${TABLES.migrationHolds} ("migration_id", "organization_key", "document_key", "keys", "roles")
       SELECT $1::uuid, $2::bigint, k, int8range(k, k, '[]'), '[0,1)'::int8range FROM unnest($4::bigint[]) AS k
       UNION ALL
       SELECT $1::uuid, $3::bigint, NULL::bigint, int8range(k, k, '[]'), int8range($5::bigint + 1, $5::bigint + 2) FROM unnest($4::bigint[]) AS k`,
      [migrationId, sourceKey, targetKey, documentKeys, seq],
    );
  }

  async releaseHolds(manager: Queryable, migrationId: string): Promise<void> {
    await manager.query(`DELETE FROM ${TABLES.migrationHolds} WHERE "migration_id" = $1`, [migrationId]);
  }

  /** The workspace's migration; another workspace's (or a malformed id) is simply absent. */
  async findInWorkspace(workspaceId: string, migrationId: string): Promise<MigrationRecord | undefined> {
    if (!isUuid(migrationId) || !isUuid(workspaceId)) return undefined;
    const rows: MigrationRow[] = await this.dataSource.query(
      `SELECT m."id", m."status", so."id" AS "source_id", tg."id" AS "target_id", m."total_documents", m."failure_reason", m."cancelled_by",
              m."created_at", m."started_at", m."finished_at",
              (SELECT coalesce(sum(s."moved"), 0)::int FROM ${TABLES.migrationSlices} s WHERE s."migration_id" = m."id") AS "moved"
       FROM ${TABLES.migrations} m
       JOIN ${TABLES.organizations} so ON so."key" = m."source_organization_key"
       JOIN ${TABLES.organizations} tg ON tg."key" = m."target_organization_key"
       WHERE m."id" = $1 AND m."workspace_id" = $2`,
      [migrationId, workspaceId],
    );
    const row = rows[0];
    return row && toRecord(row);
  }

  /** Cancels the workspace's migration if it is unfinished, releasing its holds; false when nothing changed. */
  async cancelInWorkspace(
    manager: Queryable,
    workspaceId: string,
    migrationId: string,
    cancelledBy: string,
  ): Promise<boolean> {
    if (!isUuid(migrationId) || !isUuid(workspaceId)) return false;
    const result: unknown = await manager.query(
      `UPDATE ${TABLES.migrations} SET "status" = 'cancelled', "finished_at" = now(), "cancelled_by" = $3
       WHERE "id" = $1 AND "workspace_id" = $4 AND "status" = ANY($2)`,
      [migrationId, statesAccepting('cancel'), cancelledBy, workspaceId],
    );
    if (affectedRows(result) === 0) return false;
    await this.releaseHolds(manager, migrationId);
    return true;
  }

  /** `pending` -> `in_progress`; a migration in any other state is left alone. */
  async markStarted(migrationId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${TABLES.migrations} SET "status" = 'in_progress', "started_at" = now() WHERE "id" = $1 AND "status" = ANY($2)`,
      [migrationId, statesAccepting('start')],
    );
  }

  /** Locks the migration row (FOR UPDATE) and sums its slices. */
  async lockProgress(manager: Queryable, migrationId: string): Promise<MigrationProgress | undefined> {
    const rows: { status: MigrationState; total_documents: number; moved: number; open: number }[] =
      await manager.query(
        `SELECT m."status", m."total_documents",
              (SELECT coalesce(sum("moved"), 0)::int FROM ${TABLES.migrationSlices} WHERE "migration_id" = m."id") AS "moved",
              (SELECT count(*)::int FROM ${TABLES.migrationSlices} WHERE "migration_id" = m."id" AND NOT "done") AS "open"
       FROM ${TABLES.migrations} m WHERE m."id" = $1 FOR UPDATE OF m`,
        [migrationId],
      );
    const row = rows[0];
    return (
      row && {
        status: row.status,
        totalDocuments: row.total_documents,
        movedDocuments: row.moved,
        openSlices: row.open,
      }
    );
  }

  /** Ends an unfinished migration and releases its holds; false when it had already ended. */
  async markFinished(
    manager: Queryable,
    migrationId: string,
    to: 'completed' | 'failed',
    reason?: string,
  ): Promise<boolean> {
    const result: unknown = await manager.query(
      `UPDATE ${TABLES.migrations} SET "status" = $2, "failure_reason" = $3, "finished_at" = now() WHERE "id" = $1 AND "status" = ANY($4)`,
      [migrationId, to, reason ?? null, statesAccepting(to === 'completed' ? 'complete' : 'fail')],
    );
    if (affectedRows(result) === 0) return false;
    await this.releaseHolds(manager, migrationId);
    return true;
  }

  /** Unfinished migrations with the slices not yet done (empty when all are), for the reconciler. */
  async findUnfinishedWithOpenSlices(): Promise<{ migrationId: string; openSlices: number[] }[]> {
    const rows: { id: string; open: number[] | null }[] = await this.dataSource.query(
      `SELECT m."id", array_agg(s."slice" ORDER BY s."slice") FILTER (WHERE NOT s."done") AS "open"
       FROM ${TABLES.migrations} m JOIN ${TABLES.migrationSlices} s ON s."migration_id" = m."id"
       WHERE m."status" = ANY($1) GROUP BY m."id"`,
      [UNFINISHED_STATES],
    );
    return rows.map((row) => ({ migrationId: row.id, openSlices: row.open ?? [] }));
  }

  /** Migrations by state across all workspaces (the metrics gauge). */
  async countByStatus(): Promise<{ status: string; count: number }[]> {
    return this.dataSource.query(
      `SELECT "status", count(*)::int AS "count" FROM ${TABLES.migrations} GROUP BY "status"`,
    );
  }
}

function toRecord(row: MigrationRow): MigrationRecord {
  return {
    id: row.id,
    status: row.status,
    sourceOrganizationId: row.source_id,
    targetOrganizationId: row.target_id,
    totalDocuments: row.total_documents,
    movedDocuments: row.moved,
    failureReason: row.failure_reason,
    cancelledBy: row.cancelled_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
