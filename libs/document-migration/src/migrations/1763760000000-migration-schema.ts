import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `migration` schema. Moving a document rewrites one row (its `organization_key`); records hang off the
 * document by foreign key, so they follow without being rewritten. Holds make "an unfinished migration
 * already holds these documents" a database constraint (exclusion on organization x key range x role).
 */
export class MigrationSchema1763760000000 implements MigrationInterface {
  name = 'MigrationSchema1763760000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await runner.query(`
      CREATE TABLE "migration"."workspaces" (
        "id" uuid PRIMARY KEY,
        "name" text NOT NULL,
        "api_key_digest" text NOT NULL CONSTRAINT "workspaces_api_key_digest_uq" UNIQUE,
        "auth_token_digest" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "migration"."organizations" (
        "key" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "workspace_id" uuid NOT NULL REFERENCES "migration"."workspaces" ("id"),
        "id" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "organizations_workspace_id_uq" UNIQUE ("workspace_id", "id")
      )`);
    await runner.query(`
      CREATE TABLE "migration"."documents" (
        "key" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "organization_key" bigint NOT NULL REFERENCES "migration"."organizations" ("key"),
        "id" text NOT NULL,
        "title" text NOT NULL,
        "content" text NOT NULL DEFAULT '',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "documents_organization_id_uq" UNIQUE ("organization_key", "id")
      )`);
    await runner.query(
      `CREATE INDEX "documents_organization_key_idx" ON "migration"."documents" ("organization_key", "key")`,
    );
    await runner.query(`
      CREATE TABLE "migration"."records" (
        "key" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "document_key" bigint NOT NULL REFERENCES "migration"."documents" ("key") ON DELETE CASCADE,
        "id" text NOT NULL,
        "kind" text NOT NULL,
        "body" jsonb NOT NULL,
        CONSTRAINT "records_document_id_uq" UNIQUE ("document_key", "id")
      )`);
    await runner.query(`
      CREATE TABLE "migration"."migrations" (
        "id" uuid PRIMARY KEY,
        "seq" bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT "migrations_seq_uq" UNIQUE,
        "workspace_id" uuid NOT NULL REFERENCES "migration"."workspaces" ("id"),
        "source_organization_key" bigint NOT NULL REFERENCES "migration"."organizations" ("key"),
        "target_organization_key" bigint NOT NULL REFERENCES "migration"."organizations" ("key"),
        "scope" text NOT NULL CONSTRAINT "migrations_scope_ck" CHECK ("scope" IN ('organization', 'documents')),
        "status" text NOT NULL DEFAULT 'pending'
          CONSTRAINT "migrations_status_ck" CHECK ("status" IN ('pending', 'in_progress', 'completed', 'failed', 'cancelled')),
        "total_documents" integer NOT NULL CONSTRAINT "migrations_total_ck" CHECK ("total_documents" >= 0),
        "failure_reason" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "started_at" timestamptz,
        "finished_at" timestamptz,
        CONSTRAINT "migrations_distinct_orgs_ck" CHECK ("source_organization_key" <> "target_organization_key"),
        CONSTRAINT "migrations_failure_reason_ck" CHECK (("status" = 'failed') = ("failure_reason" IS NOT NULL))
      )`);
    await runner.query(
      `CREATE INDEX "migrations_unfinished_idx" ON "migration"."migrations" ("created_at") WHERE "status" IN ('pending', 'in_progress')`,
    );
    // The state machine, enforced where the state lives: no writer can make an illegal move.
    await runner.query(`
      CREATE FUNCTION "migration"."enforce_migration_transition"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."status" = OLD."status" THEN RETURN NEW; END IF;
        IF (OLD."status" = 'pending' AND NEW."status" IN ('in_progress', 'failed', 'cancelled'))
           OR (OLD."status" = 'in_progress' AND NEW."status" IN ('completed', 'failed', 'cancelled')) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'illegal migration transition % -> %', OLD."status", NEW."status" USING ERRCODE = 'check_violation';
      END $$`);
    await runner.query(`
      CREATE TRIGGER "migrations_transition_trg" BEFORE UPDATE OF "status" ON "migration"."migrations"
      FOR EACH ROW EXECUTE FUNCTION "migration"."enforce_migration_transition"()`);
    await runner.query(`
      CREATE TABLE "migration"."migration_slices" (
        "migration_id" uuid NOT NULL REFERENCES "migration"."migrations" ("id") ON DELETE CASCADE,
        "slice" integer NOT NULL,
        "key_from" bigint NOT NULL,
        "key_to" bigint NOT NULL,
        "cursor" bigint NOT NULL,
        "moved" integer NOT NULL DEFAULT 0,
        "done" boolean NOT NULL DEFAULT false,
        PRIMARY KEY ("migration_id", "slice"),
        CONSTRAINT "migration_slices_cursor_ck" CHECK ("cursor" >= "key_from" AND "cursor" <= "key_to")
      )`);
    await runner.query(`
      CREATE TABLE "migration"."migration_holds" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "migration_id" uuid NOT NULL REFERENCES "migration"."migrations" ("id") ON DELETE CASCADE,
        "organization_key" bigint NOT NULL,
        "document_key" bigint,
        "keys" int8range NOT NULL,
        "roles" int8range NOT NULL,
        CONSTRAINT "migration_holds_overlap_ex" EXCLUDE USING gist ("organization_key" WITH =, "keys" WITH &&, "roles" WITH &&)
      )`);
    await runner.query(
      `CREATE INDEX "migration_holds_migration_idx" ON "migration"."migration_holds" ("migration_id", "document_key")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'migration_holds',
      'migration_slices',
      'migrations',
      'records',
      'documents',
      'organizations',
      'workspaces',
    ]) {
      await runner.query(`DROP TABLE IF EXISTS "migration"."${table}"`);
    }
    await runner.query(`DROP FUNCTION IF EXISTS "migration"."enforce_migration_transition"()`);
  }
}
