import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventsSettings } from './events.settings';
import { UploadJournalRepository } from './repositories/upload-journal.repository';

/**
 * Files written to storage before the event that references them commits. `record` runs before the puts,
 * `settle` inside the event's transaction (so the journal row and the event commit or vanish together), and
 * `sweep` deletes the files of rows left behind by a process that died between the two.
 */
@Injectable()
export class UploadJournal implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UploadJournal.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly rows: UploadJournalRepository,
    private readonly settings: EventsSettings,
  ) {}

  onApplicationBootstrap(): void {
    const { intervalSeconds, graceSeconds } = this.settings.uploadSweep;
    if (intervalSeconds <= 0) return;
    this.timer = setInterval(() => {
      this.sweep(graceSeconds).catch((error) =>
        this.logger.warn({ err: error, msg: 'Sweeping abandoned uploads failed; next tick retries' }),
      );
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async record(projectId: string, eventId: string, keys: string[]): Promise<void> {
    await this.rows.record(projectId, eventId, keys);
  }

  /** Inside the event's transaction: the files now belong to a committed event. */
  async settle(manager: EntityManager, projectId: string, eventId: string): Promise<void> {
    await this.rows.delete(projectId, eventId, manager);
  }

  /** After a failed request has deleted its files itself (best effort: the sweeper covers a failure here). */
  async forget(projectId: string, eventId: string): Promise<void> {
    await this.rows.delete(projectId, eventId);
  }

  /**
   * Deletes the files of journal rows older than `graceSeconds` (longer than any request), then the rows.
   * Instances sweeping at once never take the same row. Returns the number of files deleted.
   */
  async sweep(graceSeconds: number): Promise<number> {
    return this.rows.transaction(async (manager) => {
      const rows = await this.rows.lockStale(manager, graceSeconds);
      if (rows.length === 0) return 0;
      const keys = rows.flatMap((row) => row.keys);
      await this.settings.storage.delete(keys);
      await this.rows.deleteEvents(
        manager,
        rows.map((row) => row.eventId),
      );
      this.logger.warn({
        msg: 'Deleted files of event creations that never committed',
        events: rows.length,
        files: keys.length,
      });
      return keys.length;
    });
  }
}
