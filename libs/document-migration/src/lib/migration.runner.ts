import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation, pgErrorDetail, withTransaction } from '@acme/platform-persistence';
import { MigrationState } from './migration-state';
import { MigrationMetrics } from './migration.metrics';
import { MigrationSettings } from './migration.settings';
import { DocumentRepository } from './repositories/document.repository';
import { MigrationSliceRepository } from './repositories/migration-slice.repository';
import { MigrationRepository } from './repositories/migration.repository';
import { describeDuplicate } from './workspace.service';

export type SliceOutcome = 'finished' | 'stopped';

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
    private readonly migrations: MigrationRepository,
    private readonly slices: MigrationSliceRepository,
    private readonly documents: DocumentRepository,
    private readonly settings: MigrationSettings,
    private readonly metrics: MigrationMetrics,
  ) {}

  async runSlice(migrationId: string, slice: number): Promise<SliceOutcome> {
    await this.migrations.markStarted(migrationId);
    for (;;) {
      const stopTimer = this.metrics.batchDuration.startTimer();
      const batch = await withTransaction(this.dataSource, (manager) => this.moveBatch(manager, migrationId, slice));
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
    return withTransaction(this.dataSource, async (manager) => {
      const progress = await this.migrations.lockProgress(manager, migrationId);
      if (!progress || progress.status !== 'in_progress' || progress.openSlices > 0) return progress?.status;
      if (progress.movedDocuments !== progress.totalDocuments) {
        await this.finish(
          manager,
          migrationId,
          'failed',
          `Moved ${progress.movedDocuments} of ${progress.totalDocuments} documents.`,
        );
        return 'failed';
      }
      await this.finish(manager, migrationId, 'completed');
      return 'completed';
    });
  }

  /** Ends an unfinished migration as failed with its reason; a finished one is left alone. */
  async fail(migrationId: string, reason: string): Promise<boolean> {
    return withTransaction(this.dataSource, (manager) => this.finish(manager, migrationId, 'failed', reason));
  }

  /** What a batch failure means to the client (driver text never leaves the process otherwise). */
  describeFailure(error: unknown): string {
    if (isUniqueViolation(error)) {
      return `The target organization already has a document with ${describeDuplicate(pgErrorDetail(error))}.`;
    }
    return `Moving documents failed: ${(error as Error)?.message ?? String(error)}`.slice(0, 500);
  }

  private async moveBatch(
    manager: EntityManager,
    migrationId: string,
    slice: number,
  ): Promise<{ moved: number; outcome: SliceOutcome | 'more' }> {
    const current = await this.slices.lockForBatch(manager, migrationId, slice);
    if (!current || current.status !== 'in_progress') return { moved: 0, outcome: 'stopped' };
    if (current.done) return { moved: 0, outcome: 'finished' };
    const limit = this.settings.batchSize;
    const { moved, lastKey } = await this.documents.moveBatch(manager, {
      migrationId,
      scope: current.scope,
      sourceKey: current.sourceKey,
      targetKey: current.targetKey,
      afterKey: current.cursor,
      upToKey: current.keyTo,
      limit,
    });
    const done = moved < limit;
    await this.slices.checkpoint(manager, migrationId, slice, {
      cursor: done || lastKey === null ? current.keyTo : lastKey,
      moved,
      done,
    });
    return { moved, outcome: done ? 'finished' : 'more' };
  }

  private async finish(
    manager: EntityManager,
    migrationId: string,
    to: 'completed' | 'failed',
    reason?: string,
  ): Promise<boolean> {
    if (!(await this.migrations.markFinished(manager, migrationId, to, reason))) return false;
    this.logger.log({ migrationId, status: to, reason }, 'Migration finished');
    return true;
  }
}
