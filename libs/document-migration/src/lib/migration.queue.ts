import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { TracedJobData, withTraceContext } from '@acme/platform-queue';
import { MigrationSettings } from './migration.settings';

/** The queue and its jobs, declared once: the producer below and the app's processor both import from here. */
export const MIGRATION_QUEUE = 'document-migrations';

export const MIGRATION_JOBS = { moveSlice: 'move-documents-slice' } as const;

export interface MigrationJobPayloads {
  [MIGRATION_JOBS.moveSlice]: { migrationId: string; slice: number } & TracedJobData;
}

export type MigrationJobName = keyof MigrationJobPayloads;

/** Deterministic: re-enqueueing the same slice (API retry, reconciler) never creates a second job. */
export const sliceJobId = (migrationId: string, slice: number): string => `move-${migrationId}-${slice}`;

type SliceJob = Job<MigrationJobPayloads[typeof MIGRATION_JOBS.moveSlice]>;

/** Producer side: jobs carry only ids; Postgres holds the state, so a lost job is simply enqueued again. */
@Injectable()
export class MigrationQueue {
  private readonly logger = new Logger(MigrationQueue.name);

  constructor(
    @InjectQueue(MIGRATION_QUEUE) readonly queue: Queue,
    private readonly settings: MigrationSettings,
  ) {}

  async enqueueSlices(migrationId: string, slices: number[]): Promise<void> {
    await this.queue.addBulk(
      slices.map((slice) => ({
        name: MIGRATION_JOBS.moveSlice,
        // The enqueuing request's trace follows the slice into the worker (nothing added when tracing is off).
        data: withTraceContext({ migrationId, slice }),
        opts: {
          jobId: sliceJobId(migrationId, slice),
          attempts: this.settings.jobAttempts,
          backoff: { type: 'exponential', delay: this.settings.jobBackoffMs },
          removeOnComplete: true,
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })),
    );
  }

  /** Best effort right after the start commits; the reconciler enqueues whatever this misses. */
  async tryEnqueueSlices(migrationId: string, slices: number[], timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error('enqueue timed out')), timeoutMs)),
    );
    try {
      await Promise.race([this.enqueueWhenConnected(migrationId, slices), timeout]);
      return true;
    } catch (error) {
      this.logger.warn({ migrationId, err: error }, 'Could not enqueue migration jobs; the reconciler will');
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Redis away: fail at once rather than hold the caller for the timeout (BullMQ's client would wait). */
  private async enqueueWhenConnected(migrationId: string, slices: number[]): Promise<void> {
    const client = await this.queue.client;
    if (client.status !== 'ready') throw new Error(`Redis connection is ${client.status}`);
    await this.enqueueSlices(migrationId, slices);
  }

  getSliceJob(migrationId: string, slice: number): Promise<SliceJob | undefined> {
    return this.queue.getJob(sliceJobId(migrationId, slice));
  }
}
