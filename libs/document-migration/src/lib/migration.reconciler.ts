import { Injectable, Logger } from '@nestjs/common';
import { MigrationQueue } from './migration.queue';
import { MigrationRunner } from './migration.runner';
import { MigrationRepository } from './repositories/migration.repository';

/**
 * Makes BullMQ agree with Postgres: every open slice of an unfinished migration has a job (covering a start
 * whose enqueue failed, or a Redis that lost its data), a slice job that exhausted its attempts fails its
 * migration, and a migration whose slices are all done is finalized. Deterministic job ids make it idempotent.
 */
@Injectable()
export class MigrationReconciler {
  private readonly logger = new Logger(MigrationReconciler.name);

  constructor(
    private readonly migrations: MigrationRepository,
    private readonly queue: MigrationQueue,
    private readonly runner: MigrationRunner,
  ) {}

  async reconcile(): Promise<{ enqueued: number; failed: number; finalized: number }> {
    const unfinished = await this.migrations.findUnfinishedWithOpenSlices();
    const summary = { enqueued: 0, failed: 0, finalized: 0 };
    for (const { migrationId, openSlices } of unfinished) {
      if (openSlices.length === 0) {
        if ((await this.runner.finalize(migrationId)) === 'completed') summary.finalized += 1;
        continue;
      }
      const missing: number[] = [];
      for (const slice of openSlices) {
        const job = await this.queue.getSliceJob(migrationId, slice);
        if (!job) {
          missing.push(slice);
          continue;
        }
        const state = await job.getState();
        if (state === 'failed') {
          if (await this.runner.fail(migrationId, job.failedReason || 'A migration job failed.')) summary.failed += 1;
          break;
        }
        if (state === 'completed') {
          // Ended without finishing its slice (e.g. the migration was briefly not in progress): run it again.
          await job.remove();
          missing.push(slice);
        }
      }
      if (missing.length > 0) {
        await this.queue.enqueueSlices(migrationId, missing);
        summary.enqueued += missing.length;
      }
    }
    if (summary.enqueued + summary.failed + summary.finalized > 0)
      this.logger.log(summary, 'Reconciled migrations with the queue');
    return summary;
  }
}
