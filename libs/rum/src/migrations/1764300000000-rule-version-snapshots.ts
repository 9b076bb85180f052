import { MigrationInterface, QueryRunner } from 'typeorm';

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Snapshots held the whole rule set as jsonb, so history grew with changes × rules × filter size. Now each rule
 * version is stored once in rum.rule_versions (written when that rule changes) and a snapshot lists
 * (rule_id, rule_version) references in rule order. `up` numbers the versions of each rule found in the old
 * snapshots (a new version wherever the rule differs from its previous appearance); `down` rebuilds the jsonb.
 */
export class RuleVersionSnapshots1764300000000 implements MigrationInterface {
  name = 'RuleVersionSnapshots1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "rum"."rules" ADD COLUMN "rule_version" integer NOT NULL DEFAULT 1`);
    await runner.query(`
      CREATE TABLE "rum"."rule_versions" (
        "application_id" varchar(32) NOT NULL REFERENCES "rum"."applications"("id") ON DELETE CASCADE,
        "rule_id" varchar(32) NOT NULL,
        "rule_version" integer NOT NULL,
        "rule_name" varchar(128) NOT NULL,
        "description" varchar(512) NOT NULL,
        "filters" jsonb NOT NULL,
        "status" varchar(8) NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        PRIMARY KEY ("application_id", "rule_id", "rule_version")
      )`);
    await runner.query(`
      ALTER TABLE "rum"."rule_set_snapshots"
        ADD COLUMN "rule_ids" varchar(32)[] NOT NULL DEFAULT '{}',
        ADD COLUMN "rule_versions" integer[] NOT NULL DEFAULT '{}'`);

    // One row per rule of every snapshot, numbered per rule: the version goes up where the rule differs.
    await runner.query(`
      CREATE TEMPORARY TABLE "snapshot_refs" AS
      WITH elements AS (
        SELECT s."application_id", s."version", e."n", e."r", e."r"->>'id' AS "rule_id"
          FROM "rum"."rule_set_snapshots" s, jsonb_array_elements(s."rules") WITH ORDINALITY AS e("r", "n")
      ), marked AS (
        SELECT e.*, CASE WHEN lag(e."r") OVER w IS DISTINCT FROM e."r" THEN 1 ELSE 0 END AS "changed"
          FROM elements e WINDOW w AS (PARTITION BY e."application_id", e."rule_id" ORDER BY e."version")
      )
      SELECT m.*, sum(m."changed") OVER (PARTITION BY m."application_id", m."rule_id" ORDER BY m."version")::int AS "rule_version"
        FROM marked m`);
    await runner.query(`
      INSERT INTO "rum"."rule_versions"
        ("application_id", "rule_id", "rule_version", "rule_name", "description", "filters", "status", "created_at", "updated_at")
      SELECT "application_id", "rule_id", "rule_version", "r"->>'name', coalesce("r"->>'description', ''), "r"->'filters',
             "r"->>'status', ("r"->>'createdAt')::timestamptz, ("r"->>'updatedAt')::timestamptz
        FROM "snapshot_refs" WHERE "changed" = 1`);
    await runner.query(`
      UPDATE "rum"."rule_set_snapshots" s SET "rule_ids" = refs."ids", "rule_versions" = refs."versions"
        FROM (SELECT "application_id", "version", array_agg("rule_id" ORDER BY "n") AS "ids",
                     array_agg("rule_version" ORDER BY "n") AS "versions"
                FROM "snapshot_refs" GROUP BY "application_id", "version") refs
       WHERE s."application_id" = refs."application_id" AND s."version" = refs."version"`);
    await runner.query(`DROP TABLE "snapshot_refs"`);

    // Live rules continue from their newest stored version; one that differs from it gets the next number.
    await runner.query(`
      UPDATE "rum"."rules" r SET "rule_version" = v."latest"
        FROM (SELECT "application_id", "rule_id", max("rule_version") AS "latest" FROM "rum"."rule_versions"
               GROUP BY "application_id", "rule_id") v
       WHERE r."application_id" = v."application_id" AND r."id" = v."rule_id"`);
    await runner.query(`
      UPDATE "rum"."rules" r SET "rule_version" = r."rule_version" + 1
        FROM "rum"."rule_versions" v
       WHERE v."application_id" = r."application_id" AND v."rule_id" = r."id" AND v."rule_version" = r."rule_version"
         AND (v."rule_name", v."description", v."filters", v."status", v."created_at", v."updated_at")
             IS DISTINCT FROM (r."rule_name", r."description", r."filters", r."status",
                               date_trunc('milliseconds', r."created_at"), date_trunc('milliseconds', r."updated_at"))`);

    await runner.query(`
      ALTER TABLE "rum"."rule_set_snapshots" DROP COLUMN "rules",
        ALTER COLUMN "rule_ids" DROP DEFAULT, ALTER COLUMN "rule_versions" DROP DEFAULT`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "rum"."rule_set_snapshots" ADD COLUMN "rules" jsonb NOT NULL DEFAULT '[]'`);
    await runner.query(`
      UPDATE "rum"."rule_set_snapshots" s SET "rules" = (
        SELECT coalesce(jsonb_agg(jsonb_build_object('id', v."rule_id", 'name', v."rule_name", 'description', v."description",
                 'filters', v."filters", 'status', v."status",
                 'createdAt', to_char(v."created_at" AT TIME ZONE 'UTC', ${ISO_MS}),
                 'updatedAt', to_char(v."updated_at" AT TIME ZONE 'UTC', ${ISO_MS})) ORDER BY ref."n"), '[]'::jsonb)
          FROM unnest(s."rule_ids", s."rule_versions") WITH ORDINALITY AS ref("rule_id", "rule_version", "n")
          JOIN "rum"."rule_versions" v
            ON v."application_id" = s."application_id" AND v."rule_id" = ref."rule_id" AND v."rule_version" = ref."rule_version"
      )
      WHERE cardinality(s."rule_ids") > 0`);
    await runner.query(`
      ALTER TABLE "rum"."rule_set_snapshots" ALTER COLUMN "rules" DROP DEFAULT,
        DROP COLUMN "rule_ids", DROP COLUMN "rule_versions"`);
    await runner.query(`DROP TABLE "rum"."rule_versions"`);
    await runner.query(`ALTER TABLE "rum"."rules" DROP COLUMN "rule_version"`);
  }
}
