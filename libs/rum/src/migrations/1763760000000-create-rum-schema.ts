import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, keys, applications, access, rules with their append-only snapshots, ingested errors, audit log. */
export class CreateRumSchema1763760000000 implements MigrationInterface {
  name = 'CreateRumSchema1763760000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "rum"`);
    await runner.query(`
      CREATE TABLE "rum"."accounts" (
        "id" bigserial PRIMARY KEY,
        "name" varchar(128) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "rum"."app_keys" (
        "id" bigserial PRIMARY KEY,
        "account_id" bigint NOT NULL REFERENCES "rum"."accounts"("id") ON DELETE CASCADE,
        "key_digest" char(64) NOT NULL CONSTRAINT "uq_app_keys_digest" UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "rum"."applications" (
        "id" varchar(32) PRIMARY KEY,
        "name" varchar(128) NOT NULL,
        "owner_account_id" bigint NOT NULL REFERENCES "rum"."accounts"("id"),
        "rule_set_version" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "rum"."application_access" (
        "application_id" varchar(32) NOT NULL REFERENCES "rum"."applications"("id") ON DELETE CASCADE,
        "account_id" bigint NOT NULL REFERENCES "rum"."accounts"("id") ON DELETE CASCADE,
        "access" varchar(8) NOT NULL CHECK ("access" IN ('read', 'write')),
        PRIMARY KEY ("application_id", "account_id")
      )`);
    await runner.query(`
      CREATE TABLE "rum"."client_tokens" (
        "id" bigserial PRIMARY KEY,
        "application_id" varchar(32) NOT NULL REFERENCES "rum"."applications"("id") ON DELETE CASCADE,
        "token_digest" char(64) NOT NULL CONSTRAINT "uq_client_tokens_digest" UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "rum"."rules" (
        "id" varchar(32) PRIMARY KEY,
        "seq" bigserial NOT NULL,
        "application_id" varchar(32) NOT NULL REFERENCES "rum"."applications"("id") ON DELETE CASCADE,
        "rule_name" varchar(128) NOT NULL,
        "description" varchar(512) NOT NULL DEFAULT '',
        "filters" jsonb NOT NULL,
        "status" varchar(8) NOT NULL DEFAULT 'enabled' CHECK ("status" IN ('enabled', 'disabled')),
        "discarded_count" bigint NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "uq_rules_application_name" UNIQUE ("application_id", "rule_name")
      )`);
    await runner.query(`CREATE INDEX "ix_rules_application_seq" ON "rum"."rules" ("application_id", "seq")`);
    await runner.query(`
      CREATE TABLE "rum"."rule_set_snapshots" (
        "id" bigserial PRIMARY KEY,
        "application_id" varchar(32) NOT NULL REFERENCES "rum"."applications"("id") ON DELETE CASCADE,
        "version" integer NOT NULL,
        "rules" jsonb NOT NULL,
        "updated_by" bigint NOT NULL,
        "updated_by_name" varchar(128) NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "uq_rule_set_snapshots_version" UNIQUE ("application_id", "version")
      )`);
    await runner.query(
      `CREATE INDEX "ix_rule_set_snapshots_updated" ON "rum"."rule_set_snapshots" ("application_id", "updated_at", "version")`,
    );
    await runner.query(`
      CREATE TABLE "rum"."error_events" (
        "id" bigserial PRIMARY KEY,
        "application_id" varchar(32) NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now(),
        "payload" json NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX "ix_error_events_application_time" ON "rum"."error_events" ("application_id", "occurred_at")`,
    );
    await runner.query(`
      CREATE TABLE "rum"."audit_log" (
        "id" bigserial PRIMARY KEY,
        "account_id" bigint NOT NULL,
        "method" varchar(8) NOT NULL,
        "route" varchar(256) NOT NULL,
        "application_id" varchar(128),
        "status" smallint NOT NULL,
        "result" varchar(32) NOT NULL,
        "request_id" varchar(128) NOT NULL,
        "request" jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX "ix_audit_log_account" ON "rum"."audit_log" ("account_id", "id")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'audit_log',
      'error_events',
      'rule_set_snapshots',
      'rules',
      'client_tokens',
      'application_access',
      'applications',
      'app_keys',
      'accounts',
    ]) {
      await runner.query(`DROP TABLE IF EXISTS "rum"."${table}"`);
    }
  }
}
