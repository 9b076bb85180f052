import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRateLimitPolicies1763700000000 implements MigrationInterface {
  name = 'CreateRateLimitPolicies1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "management"."rate_limit_policies" (
        "id" varchar(26) PRIMARY KEY,
        "resource" varchar(64) NOT NULL,
        "consumer" varchar(32) NOT NULL,
        "consumer_selector" varchar(255) NOT NULL,
        "configuration" jsonb NOT NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        "updated_at" timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "uq_rate_limit_policies_target" UNIQUE ("resource", "consumer", "consumer_selector")
      )`);
    await runner.query(
      `CREATE INDEX "ix_rate_limit_policies_order" ON "management"."rate_limit_policies" ("created_at", "id")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "management"."rate_limit_policies"`);
  }
}
