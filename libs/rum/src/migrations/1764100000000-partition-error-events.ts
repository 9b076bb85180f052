import { MigrationInterface, QueryRunner } from 'typeorm';
import { createDayPartition, DAY_MS, utcDay } from '../lib/event-partitions';

const COLUMNS = `"id", "application_id", "occurred_at", "received_at", "payload"`;
/** Days before today that get their own partition here; older rows wait in the default partition for retention. */
const MIGRATION_RETENTION_DAYS = 30;
const AHEAD_DAYS = 3;

/**
 * rum.error_events becomes range-partitioned by UTC day of `occurred_at` (retention drops whole days) plus a
 * default partition, so no insert ever fails for want of a partition. Rows keep their ids: the new table
 * takes over the same sequence. The copy holds the table locked for its duration.
 */
export class PartitionErrorEvents1764100000000 implements MigrationInterface {
  name = 'PartitionErrorEvents1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await setAside(runner, 'error_events_unpartitioned');
    await runner.query(`
      CREATE TABLE "rum"."error_events" (
        "id" bigint NOT NULL DEFAULT nextval('"rum"."error_events_id_seq"'),
        "application_id" varchar(32) NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now(),
        "payload" json NOT NULL,
        CONSTRAINT "error_events_pkey" PRIMARY KEY ("id", "occurred_at")
      ) PARTITION BY RANGE ("occurred_at")`);
    await runner.query(
      `CREATE INDEX "ix_error_events_application_time" ON "rum"."error_events" ("application_id", "occurred_at")`,
    );
    await runner.query(`CREATE TABLE "rum"."error_events_default" PARTITION OF "rum"."error_events" DEFAULT`);

    const now = new Date();
    const today = utcDay(now);
    // The first day whose end is after the retention cutoff, as maintenance reckons it.
    const first = utcDay(new Date(now.getTime() - MIGRATION_RETENTION_DAYS * DAY_MS));
    const end = new Date(today.getTime() + (AHEAD_DAYS + 1) * DAY_MS);
    const present: { day: number }[] = await runner.query(
      `SELECT DISTINCT floor(extract(epoch FROM "occurred_at") / 86400)::int AS "day" FROM "rum"."error_events_unpartitioned"
       WHERE "occurred_at" >= $1 AND "occurred_at" < $2`,
      [first, today],
    );
    const days = new Set(present.map(({ day }) => day * DAY_MS));
    for (let day = today.getTime(); day < end.getTime(); day += DAY_MS) days.add(day);
    const sql = (text: string, params?: unknown[]) => runner.query(text, params);
    for (const day of [...days].sort((a, b) => a - b)) await createDayPartition(sql, new Date(day));

    await runner.query(
      `INSERT INTO "rum"."error_events" (${COLUMNS}) SELECT ${COLUMNS} FROM "rum"."error_events_unpartitioned"`,
    );
    await takeOver(runner);
    await runner.query(`DROP TABLE "rum"."error_events_unpartitioned"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await setAside(runner, 'error_events_partitioned');
    await runner.query(`
      CREATE TABLE "rum"."error_events" (
        "id" bigint NOT NULL DEFAULT nextval('"rum"."error_events_id_seq"') PRIMARY KEY,
        "application_id" varchar(32) NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now(),
        "payload" json NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX "ix_error_events_application_time" ON "rum"."error_events" ("application_id", "occurred_at")`,
    );
    await runner.query(
      `INSERT INTO "rum"."error_events" (${COLUMNS}) SELECT ${COLUMNS} FROM "rum"."error_events_partitioned"`,
    );
    await takeOver(runner);
    await runner.query(`DROP TABLE "rum"."error_events_partitioned"`);
  }
}

/** Renames the current table with its key and index, freeing their names for the replacement. */
async function setAside(runner: QueryRunner, name: string): Promise<void> {
  await runner.query(`ALTER TABLE "rum"."error_events" RENAME TO "${name}"`);
  await runner.query(`ALTER TABLE "rum"."${name}" RENAME CONSTRAINT "error_events_pkey" TO "${name}_pkey"`);
  await runner.query(`ALTER INDEX "rum"."ix_error_events_application_time" RENAME TO "ix_${name}_application_time"`);
}

/** The sequence (owned by the old column, so dropped with it) moves to the new table: ids continue where they were. */
async function takeOver(runner: QueryRunner): Promise<void> {
  await runner.query(`ALTER SEQUENCE "rum"."error_events_id_seq" OWNED BY "rum"."error_events"."id"`);
}
