import { MigrationInterface, QueryRunner } from 'typeorm';

/** Who cancelled a migration: the wire shows a cancelled migration as `failed` with this as its reason. */
export class MigrationCancelledBy1764000000000 implements MigrationInterface {
  name = 'MigrationCancelledBy1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "migration"."migrations" ADD COLUMN "cancelled_by" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "migration"."migrations" DROP COLUMN "cancelled_by"`);
  }
}
