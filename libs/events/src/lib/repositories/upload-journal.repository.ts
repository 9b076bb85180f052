import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { communityTable } from '@acme/community-schema';

const TABLE = communityTable('pending_uploads');

export interface PendingUpload {
  eventId: string;
  keys: string[];
}

/** The journal of files stored before their event commits (one row per event creation). */
@Injectable()
export class UploadJournalRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async record(projectId: string, eventId: string, keys: string[]): Promise<void> {
    await this.dataSource.query(`INSERT INTO ${TABLE} (event_id, project_id, keys) VALUES ($1, $2, $3)`, [
      eventId,
      projectId,
      keys,
    ]);
  }

  /** Deletes the row, inside `manager`'s transaction when given. */
  async delete(projectId: string, eventId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(`DELETE FROM ${TABLE} WHERE event_id = $1 AND project_id = $2`, [eventId, projectId]);
  }

  /**
   * Up to 100 rows older than `graceSeconds`, locked until the transaction ends. SKIP LOCKED: instances sweeping
   * at once never take the same row. Across projects on purpose (the sweeper is the deployment's, not a tenant's).
   */
  async lockStale(manager: EntityManager, graceSeconds: number): Promise<PendingUpload[]> {
    const rows = (await manager.query(
      `SELECT event_id, keys FROM ${TABLE} WHERE created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED`,
      [graceSeconds],
    )) as { event_id: string; keys: string[] }[];
    return rows.map((row) => ({ eventId: row.event_id, keys: row.keys }));
  }

  async deleteEvents(manager: EntityManager, eventIds: string[]): Promise<void> {
    await manager.query(`DELETE FROM ${TABLE} WHERE event_id = ANY($1::uuid[])`, [eventIds]);
  }
}
