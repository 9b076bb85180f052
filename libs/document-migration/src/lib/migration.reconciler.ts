import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UNFINISHED_STATES } from './migration-state';
import { MigrationQueue } from './migration.queue';
import { MigrationRunner } from './migration.runner';

/**
 * Makes BullMQ agree with Postgres: every open slice of an unfinished migration has a job (covering a start
 * whose enqueue failed, or a Redis that lost its data), a slice job that exhausted its attempts fails its
 * migration, and a migration whose slices are all done is finalized. Deterministic job ids make it idempotent.
 */
@Injectable()
export class MigrationReconciler {
  private readonly logger = new Logger(MigrationReconciler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: MigrationQueue,
    private readonly runner: MigrationRunner,
  ) {}

  async reconcile(): Promise<{ enqueued: number; failed: number; finalized: number }> {
    const rows: { id: string; open: number[] | null }[] = await this.dataSource.query(
      `SELECT m."id", array_agg(s."slice" ORDER BY s."slice") FILTER (WHERE NOT s."done") AS "open"
       FROM "migration"."migrations" m JOIN "migration"."migration_slices" s ON s."migration_id" = m."id"
       WHERE m."status" = ANY($1) GROUP BY m."id"`,
      [UNFINISHED_STATES],
    );
    const summary = { enqueued: 0, failed: 0, finalized: 0 };
    for (const row of rows) {
      if (!row.open || row.open.length === 0) {
        if ((await this.runner.finalize(row.id)) === 'completed') summary.finalized += 1;
        continue;
      }
      const missing: number[] = [];
      for (const slice of row.open) {
        const job = await this.queue.getSliceJob(row.id, slice);
        if (!job) {
          missing.push(slice);
          continue;
        }
        const state = await job.getState();
        if (state === 'failed') {
          if (await this.runner.fail(row.id, job.failedReason || 'A migration job failed.')) summary.failed += 1;
          break;
        }
        if (state === 'completed') {
          // Ended without finishing its slice (e.g. the migration was briefly not in progress): run it again.
          await job.remove();
          missing.push(slice);
        }
      }
      if (missing.length > 0) {
        await this.queue.enqueueSlices(row.id, missing);
        summary.enqueued += missing.length;
      }
    }
    if (summary.enqueued + summary.failed + summary.finalized > 0) this.logger.log(summary, 'Reconciled migrations with the queue');
    return summary;
  }
}
