import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { MigrationState, statesAccepting } from './migration-state';
import { MigrationQueue } from './migration.queue';
import { MigrationSettings } from './migration.settings';
import { migrationErrors } from './migrations.errors';
import { affectedRows, firstRow, hasPgCode, isUuid, PG_EXCLUSION_VIOLATION } from './pg-errors';
import { planListSlices, planRangeSlices, SlicePlan } from './slice-plan';
import { WorkspaceService } from './workspace.service';

export interface StartMigrationInput {
  organizationId: string;
  targetOrganizationId: string;
  /** Absent: every document of the source organization at start. */
  documentIds?: string[];
}

export interface MigrationView {
  migrationId: string;
  status: MigrationState;
  organizationId: string;
  targetOrganizationId: string;
  totalDocuments: number;
  migratedDocuments: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  failureReason: string | null;
}

interface ViewRow {
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

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Use cases of the public API: start a migration, read its status, cancel it. */
@Injectable()
export class MigrationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly workspaces: WorkspaceService,
    private readonly queue: MigrationQueue,
    private readonly settings: MigrationSettings,
  ) {}

  /**
   * Creates the migration `pending` with its total, its holds and its slices in one transaction, then enqueues
   * one job per slice. The holds' exclusion constraint rejects overlap with any unfinished migration.
   */
  async start(workspaceId: string, input: StartMigrationInput): Promise<{ migrationId: string; status: MigrationState }> {
    if (input.organizationId === input.targetOrganizationId) throw migrationErrors.sameOrganization();
    const source = await this.workspaces.organizationKey(workspaceId, input.organizationId);
    const target = await this.workspaces.organizationKey(workspaceId, input.targetOrganizationId);
    const migrationId = randomUUID();
    const slices = await this.dataSource.transaction(async (manager) => {
      const plan = input.documentIds
        ? await this.planDocuments(manager, source, input.documentIds)
        : await this.planOrganization(manager, source);
      const rows: { seq: string }[] = await manager.query(
        `INSERT INTO "migration"."migrations" ("id", "workspace_id", "source_organization_key", "target_organization_key", "scope", "total_documents")
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING "seq"`,
        [migrationId, workspaceId, source, target, plan.keys ? 'documents' : 'organization', plan.total],
      );
      await this.insertHolds(manager, migrationId, firstRow(rows).seq, source, target, plan.keys);
      await manager.query(
        `INSERT INTO "migration"."migration_slices" ("migration_id", "slice", "key_from", "key_to", "cursor")
         SELECT $1, s, f, t, f FROM unnest($2::int[], $3::bigint[], $4::bigint[]) AS x(s, f, t)`,
        [migrationId, plan.slices.map((s) => s.slice), plan.slices.map((s) => s.keyFrom), plan.slices.map((s) => s.keyTo)],
      );
      return plan.slices;
    });
    await this.queue.tryEnqueueSlices(migrationId, slices.map((s) => s.slice));
    return { migrationId, status: 'pending' };
  }

  /** Status from Postgres; the organization must be the migration's source or target, in the caller's workspace. */
  async status(workspaceId: string, organizationId: string, migrationId: string): Promise<MigrationView> {
    const row = await this.load(workspaceId, migrationId);
    if (!row || (row.source_id !== organizationId && row.target_id !== organizationId)) throw migrationErrors.migrationNotFound();
    return {
      migrationId: row.id,
      status: row.status,
      organizationId: row.source_id,
      targetOrganizationId: row.target_id,
      totalDocuments: row.total_documents,
      migratedDocuments: row.moved,
      createdAt: new Date(row.created_at).toISOString(),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
      failureReason: row.failure_reason ?? row.cancelled_by,
    };
  }

  /** Cancels an unfinished migration (who cancelled is kept as its reason): documents already moved stay moved, the rest stay where they are. */
  async cancel(workspaceId: string, organizationId: string, migrationId: string): Promise<MigrationView> {
    const current = await this.status(workspaceId, organizationId, migrationId);
    const changed = await this.dataSource.transaction(async (manager) => {
      const result: unknown = await manager.query(
        `UPDATE "migration"."migrations" SET "status" = 'cancelled', "finished_at" = now(), "cancelled_by" = $3 WHERE "id" = $1 AND "status" = ANY($2)`,
        [migrationId, statesAccepting('cancel'), cancelledBy(workspaceId, organizationId)],
      );
      await manager.query(`DELETE FROM "migration"."migration_holds" WHERE "migration_id" = $1`, [migrationId]);
      return affectedRows(result);
    });
    if (changed === 0) throw migrationErrors.migrationFinished(current.status);
    return this.status(workspaceId, organizationId, migrationId);
  }

  private async load(workspaceId: string, migrationId: string): Promise<ViewRow | undefined> {
    if (!isUuid(migrationId)) return undefined;
    const rows: ViewRow[] = await this.dataSource.query(
      `SELECT m."id", m."status", so."id" AS "source_id", tg."id" AS "target_id", m."total_documents", m."failure_reason", m."cancelled_by",
              m."created_at", m."started_at", m."finished_at",
              (SELECT coalesce(sum(s."moved"), 0)::int FROM "migration"."migration_slices" s WHERE s."migration_id" = m."id") AS "moved"
       FROM "migration"."migrations" m
       JOIN "migration"."organizations" so ON so."key" = m."source_organization_key"
       JOIN "migration"."organizations" tg ON tg."key" = m."target_organization_key"
       WHERE m."id" = $1 AND m."workspace_id" = $2`,
      [migrationId, workspaceId],
    );
    return rows[0];
  }

  private async planDocuments(manager: EntityManager, source: string, documentIds: string[]) {
    // FOR SHARE: a concurrent move of one of these documents either commits first (then it is missing here) or waits.
    const rows: { key: string; id: string }[] = await manager.query(
      `SELECT "key", "id" FROM "migration"."documents" WHERE "organization_key" = $1 AND "id" = ANY($2::text[]) ORDER BY "key" FOR SHARE`,
      [source, documentIds],
    );
    if (rows.length !== documentIds.length) {
      const found = new Set(rows.map((row) => row.id));
      throw migrationErrors.documentsNotFound(documentIds.filter((id) => !found.has(id)));
    }
    const keys = rows.map((row) => row.key);
    return { total: keys.length, keys, slices: planListSlices(keys, this.settings.sliceSize) };
  }

  private async planOrganization(manager: EntityManager, source: string): Promise<{ total: number; keys?: string[]; slices: SlicePlan[] }> {
    // Imports take FOR SHARE on the organization row, so every document committed later gets a larger key.
    await manager.query(`SELECT 1 FROM "migration"."organizations" WHERE "key" = $1 FOR UPDATE`, [source]);
    const rows: { total: number; min: string | null; max: string | null }[] = await manager.query(
      `SELECT count(*)::int AS "total", min("key")::text AS "min", max("key")::text AS "max" FROM "migration"."documents" WHERE "organization_key" = $1`,
      [source],
    );
    const { total, min, max } = firstRow(rows);
    return { total, slices: planRangeSlices(total, min, max, this.settings.sliceSize, this.settings.maxSlices) };
  }

  /**
   * Holds: (organization, key range, role). Roles: whole-organization source (-inf,inf) conflicts with
   * everything on that organization; a listed document's source hold [0,1) conflicts with the same document
   * held as source; a target hold [seq+1,seq+2) conflicts only with whole-organization sources, which would
   * otherwise sweep up documents arriving mid-way.
   */
  private async insertHolds(manager: EntityManager, migrationId: string, seq: string, source: string, target: string, keys?: string[]) {
    try {
      if (!keys) {
        await manager.query(
          `INSERT INTO "migration"."migration_holds" ("migration_id", "organization_key", "keys", "roles")
           VALUES ($1, $2, '(,)', '(,)'), ($1, $3, '(,)', int8range($4::bigint + 1, $4::bigint + 2))`,
          [migrationId, source, target, seq],
        );
        return;
      }
      await manager.query(
        `INSERT INTO "migration"."migration_holds" ("migration_id", "organization_key", "document_key", "keys", "roles")
         SELECT $1::uuid, $2::bigint, k, int8range(k, k, '[]'), '[0,1)'::int8range FROM unnest($4::bigint[]) AS k
         UNION ALL
         SELECT $1::uuid, $3::bigint, NULL::bigint, int8range(k, k, '[]'), int8range($5::bigint + 1, $5::bigint + 2) FROM unnest($4::bigint[]) AS k`,
        [migrationId, source, target, keys, seq],
      );
    } catch (error) {
      if (hasPgCode(error, PG_EXCLUSION_VIOLATION)) throw migrationErrors.documentsHeld();
      throw error;
    }
  }
}

/** The reason a cancelled migration shows: the wire reports it as `failed` (docs/migration-worker.md#states). */
export const cancelledBy = (workspaceId: string, organizationId: string) =>
  `Cancelled through /migrate/cancel by workspace ${workspaceId} (request for organization ${organizationId}).`;
