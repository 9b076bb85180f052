import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { MigrationState, statesAccepting } from './migration-state';
import { MigrationMetrics } from './migration.metrics';
import { MigrationSettings } from './migration.settings';
import { affectedRows, firstRow, hasPgCode, pgError, PG_UNIQUE_VIOLATION } from './pg-errors';
import { describeDuplicate } from './workspace.service';

export type SliceOutcome = 'finished' | 'stopped';

interface SliceRow {
  status: MigrationState;
  scope: 'organization' | 'documents';
  source: string;
  target: string;
  cursor: string;
  key_to: string;
  done: boolean;
}

/**
 * Moves one slice of a migration batch by batch. Each batch moves its documents (records follow by foreign
 * key) and advances the slice's checkpoint in the same transaction, so a worker killed anywhere either
 * committed a batch entirely or not at all, and whoever runs the slice next resumes from the checkpoint.
 */
@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: MigrationSettings,
    private readonly metrics: MigrationMetrics,
  ) {}

  async runSlice(migrationId: string, slice: number): Promise<SliceOutcome> {
    await this.dataSource.query(
      `UPDATE "migration"."migrations" SET "status" = 'in_progress', "started_at" = now() WHERE "id" = $1 AND "status" = ANY($2)`,
      [migrationId, statesAccepting('start')],
    );
    for (;;) {
      const stopTimer = this.metrics.batchDuration.startTimer();
      const batch = await this.dataSource.transaction((manager) => this.moveBatch(manager, migrationId, slice));
      if (batch.moved > 0) {
        stopTimer();
        this.metrics.documentsMoved.inc(batch.moved);
      }
      if (batch.outcome === 'stopped') return 'stopped';
      if (batch.outcome === 'finished') break;
    }
    await this.finalize(migrationId);
    return 'finished';
  }

  /** Completes the migration once every slice is done (and the counts agree). Safe to call any number of times. */
  async finalize(migrationId: string): Promise<MigrationState | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const rows: { status: MigrationState; total_documents: number; moved: number; open: number }[] = await manager.query(
        `SELECT m."status", m."total_documents",
                (SELECT coalesce(sum("moved"), 0)::int FROM "migration"."migration_slices" WHERE "migration_id" = m."id") AS "moved",
                (SELECT count(*)::int FROM "migration"."migration_slices" WHERE "migration_id" = m."id" AND NOT "done") AS "open"
         FROM "migration"."migrations" m WHERE m."id" = $1 FOR UPDATE OF m`,
        [migrationId],
      );
      const row = rows[0];
      if (!row || row.status !== 'in_progress' || row.open > 0) return row?.status;
      if (row.moved !== row.total_documents) {
        await this.transition(manager, migrationId, 'failed', `Moved ${row.moved} of ${row.total_documents} documents.`);
        return 'failed';
      }
      await this.transition(manager, migrationId, 'completed');
      return 'completed';
    });
  }

  /** Ends an unfinished migration as failed with its reason; a finished one is left alone. */
  async fail(migrationId: string, reason: string): Promise<boolean> {
    return this.dataSource.transaction((manager) => this.transition(manager, migrationId, 'failed', reason));
  }

  /** What a batch failure means to the client (driver text never leaves the process otherwise). */
  describeFailure(error: unknown): string {
    if (hasPgCode(error, PG_UNIQUE_VIOLATION)) {
      return `The target organization already has a document with ${describeDuplicate(pgError(error)?.detail)}.`;
    }
    return `Moving documents failed: ${(error as Error)?.message ?? String(error)}`.slice(0, 500);
  }

  private async moveBatch(manager: EntityManager, migrationId: string, slice: number): Promise<{ moved: number; outcome: SliceOutcome | 'more' }> {
    const rows: SliceRow[] = await manager.query(
      `SELECT m."status", m."scope", m."source_organization_key"::text AS "source", m."target_organization_key"::text AS "target",
              s."cursor"::text AS "cursor", s."key_to"::text AS "key_to", s."done"
       FROM "migration"."migrations" m JOIN "migration"."migration_slices" s ON s."migration_id" = m."id"
       WHERE m."id" = $1 AND s."slice" = $2
       FOR SHARE OF m FOR UPDATE OF s`,
      [migrationId, slice],
    );
    const row = rows[0];
    if (!row || row.status !== 'in_progress') return { moved: 0, outcome: 'stopped' };
    if (row.done) return { moved: 0, outcome: 'finished' };
    const batchSize = this.settings.batchSize;
    const candidates =
      row.scope === 'organization'
        ? `SELECT d."key" FROM "migration"."documents" d
           WHERE d."organization_key" = $1 AND d."key" > $2 AND d."key" <= $3
           ORDER BY d."key" LIMIT $4 FOR UPDATE`
        : `SELECT d."key" FROM "migration"."migration_holds" h JOIN "migration"."documents" d ON d."key" = h."document_key"
           WHERE h."migration_id" = $6 AND h."document_key" > $2 AND h."document_key" <= $3 AND d."organization_key" = $1
           ORDER BY d."key" LIMIT $4 FOR UPDATE OF d`;
    const params = [row.source, row.cursor, row.key_to, batchSize, row.target];
    if (row.scope === 'documents') params.push(migrationId);
    const moved: { n: number; last: string | null }[] = await manager.query(
      `WITH batch AS (${candidates}),
       moved AS (UPDATE "migration"."documents" d SET "organization_key" = $5 FROM batch WHERE d."key" = batch."key" RETURNING d."key")
       SELECT count(*)::int AS "n", max("key")::text AS "last" FROM moved`,
      params,
    );
    const { n, last } = firstRow(moved);
    const done = n < batchSize;
    await manager.query(
      `UPDATE "migration"."migration_slices" SET "cursor" = $3, "moved" = "moved" + $4, "done" = $5 WHERE "migration_id" = $1 AND "slice" = $2`,
      [migrationId, slice, done ? row.key_to : last, n, done],
    );
    return { moved: n, outcome: done ? 'finished' : 'more' };
  }

  private async transition(manager: EntityManager, migrationId: string, to: 'completed' | 'failed', reason?: string): Promise<boolean> {
    const event = to === 'completed' ? 'complete' : 'fail';
    const result: unknown = await manager.query(
      `UPDATE "migration"."migrations" SET "status" = $2, "failure_reason" = $3, "finished_at" = now() WHERE "id" = $1 AND "status" = ANY($4)`,
      [migrationId, to, reason ?? null, statesAccepting(event)],
    );
    if (affectedRows(result) === 0) return false;
    await manager.query(`DELETE FROM "migration"."migration_holds" WHERE "migration_id" = $1`, [migrationId]);
    this.logger.log({ migrationId, status: to, reason }, 'Migration finished');
    return true;
  }
}
