import { MigrationInterface, QueryRunner } from 'typeorm';

/** Several app keys per account, listed masked (their last characters), and audit entries naming the key used. */
export class AppKeyManagement1764000000200 implements MigrationInterface {
  name = 'AppKeyManagement1764000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "rum"."app_keys" ADD COLUMN "key_hint" varchar(8)`);
    await runner.query(`CREATE INDEX "ix_app_keys_account" ON "rum"."app_keys" ("account_id", "id")`);
    await runner.query(`ALTER TABLE "rum"."audit_log" ADD COLUMN "app_key_id" bigint`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "rum"."audit_log" DROP COLUMN "app_key_id"`);
    await runner.query(`DROP INDEX "rum"."ix_app_keys_account"`);
    await runner.query(`ALTER TABLE "rum"."app_keys" DROP COLUMN "key_hint"`);
  }
}
