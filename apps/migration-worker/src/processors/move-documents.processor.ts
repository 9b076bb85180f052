import { WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Job } from 'bullmq';
import {
  MIGRATION_JOBS,
  MigrationJobName,
  MigrationJobPayloads,
  MigrationRunner,
  SliceOutcome,
} from '@acme/document-migration';
import { runJobInTrace } from '@acme/platform-queue';

/** Thin: hands each slice to the runner; on the last attempt the migration fails with the error as its reason. */
@Injectable()
export class MoveDocumentsProcessor extends WorkerHost {
  constructor(private readonly runner: MigrationRunner) {
    super();
  }

  async process(
    job: Job<MigrationJobPayloads[MigrationJobName], SliceOutcome, MigrationJobName>,
  ): Promise<SliceOutcome> {
    if (job.name !== MIGRATION_JOBS.moveSlice) throw new Error(`Unknown job ${job.name}`);
    const { migrationId, slice } = job.data;
    // A span under the trace of the request that enqueued the slice: its batches' SQL joins that trace.
    return runJobInTrace(job, async () => {
      try {
        return await this.runner.runSlice(migrationId, slice);
      } catch (error) {
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1))
          await this.runner.fail(migrationId, this.runner.describeFailure(error));
        throw error;
      }
    });
  }
}
