import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each project's allow-list of redirect origins for verification links; empty (no redirect) by default. */
export class ProjectRedirectOrigins1810000000000 implements MigrationInterface {
  name = 'ProjectRedirectOrigins1810000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "community"."projects" ADD COLUMN IF NOT EXISTS redirect_origins text[] NOT NULL DEFAULT '{}'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "community"."projects" DROP COLUMN redirect_origins`);
  }
}
