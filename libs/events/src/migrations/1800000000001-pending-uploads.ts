import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A journal of the storage keys an event creation wrote before its transaction commits. The row is deleted in
 * that transaction, so a row that outlives its request names files of an event that never committed (the
 * process died in between): the sweeper deletes them.
 */
export class PendingUploads1800000000001 implements MigrationInterface {
  name = 'PendingUploads1800000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "community"."pending_uploads" (
      event_id uuid PRIMARY KEY,
      project_id uuid NOT NULL,
      keys text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX pending_uploads_created_idx ON "community"."pending_uploads" (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "community"."pending_uploads"`);
  }
}
