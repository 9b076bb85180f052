import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@acme/platform-observability';

/** A query function returning rows: TypeORM's `manager.query`, or a pg client's wrapped, so a cron command shares this SQL. */
export type SqlQuery = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export const DAY_MS = 86_400_000;
/** Held for the transaction of one pass; instances (and the cron command) that find it taken skip their pass. */
export const EVENT_PARTITION_LOCK = 'rum:error_events:partitions';
const COLUMNS = `"id", "application_id", "occurred_at", "received_at", "payload"`;
const PARTITION_NAME = /^error_events_p(\d{4})(\d{2})(\d{2})$/;

/** Midnight UTC of the day holding `date`: partitions are UTC days. */
export function utcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
}

/** `error_events_pYYYYMMDD` for the UTC day starting at `day`. */
export function eventPartitionName(day: Date): string {
  return `error_events_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

function partitionDay(name: string): Date | undefined {
  const match = PARTITION_NAME.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
}

/**
 * Creates the partition of one UTC day unless it exists; returns its name when created. Rows the default
 * partition already holds for that day move into it (Postgres refuses the new bounds while they sit there).
 */
export async function createDayPartition(sql: SqlQuery, day: Date): Promise<string | undefined> {
  const name = eventPartitionName(day);
  const [{ exists }] = await sql(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, [`"rum"."${name}"`]);
  if (exists) return undefined;
  // DDL takes no parameters; ISO timestamps from a Date are safe literals.
  const bounds = `FOR VALUES FROM ('${day.toISOString()}') TO ('${new Date(day.getTime() + DAY_MS).toISOString()}')`;
  const range = [day, new Date(day.getTime() + DAY_MS)];
  const [{ waiting }] = await sql(
    `SELECT EXISTS (SELECT 1 FROM "rum"."error_events_default" WHERE "occurred_at" >= $1 AND "occurred_at" < $2) AS "waiting"`,
    range,
  );
  if (!waiting) {
    await sql(`CREATE TABLE "rum"."${name}" PARTITION OF "rum"."error_events" ${bounds}`);
    return name;
  }
  await sql(`CREATE TABLE "rum"."${name}" (LIKE "rum"."error_events" INCLUDING DEFAULTS)`);
  await sql(
    `WITH moved AS (DELETE FROM "rum"."error_events_default" WHERE "occurred_at" >= $1 AND "occurred_at" < $2 RETURNING ${COLUMNS})
     INSERT INTO "rum"."${name}" (${COLUMNS}) SELECT ${COLUMNS} FROM moved`,
    range,
  );
  // ATTACH builds the primary key and index on the new table to match the parent's.
  await sql(`ALTER TABLE "rum"."error_events" ATTACH PARTITION "rum"."${name}" ${bounds}`);
  return name;
}

/** Drops the daily partitions whose whole day is before `cutoff` and the default partition's rows before it. */
export async function dropExpiredPartitions(sql: SqlQuery, cutoff: Date): Promise<string[]> {
  const partitions = await sql(
    `SELECT c."relname" AS "name" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid"
     WHERE i."inhparent" = '"rum"."error_events"'::regclass ORDER BY 1`,
  );
  const dropped: string[] = [];
  for (const { name } of partitions as { name: string }[]) {
    const day = partitionDay(name);
    if (!day || day.getTime() + DAY_MS > cutoff.getTime()) continue;
    await sql(`DROP TABLE "rum"."${name}"`);
    dropped.push(name);
  }
  await sql(`DELETE FROM "rum"."error_events_default" WHERE "occurred_at" < $1`, [cutoff]);
  return dropped;
}

export interface EventPartitionPolicy {
  retentionDays: number;
  aheadDays: number;
}

export interface EventPartitionRun {
  created: string[];
  dropped: string[];
  /** Another instance held the lock: this pass did nothing. */
  skipped: boolean;
  /** Rows left in the default partition after the pass (not counted when skipped). */
  defaultRows?: number;
}

/** One pass, inside the caller's transaction (the advisory lock is released when it ends). */
export async function maintainEventPartitions(sql: SqlQuery, policy: EventPartitionPolicy, now = new Date()): Promise<EventPartitionRun> {
  const [{ locked }] = await sql(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS "locked"`, [EVENT_PARTITION_LOCK]);
  if (!locked) return { created: [], dropped: [], skipped: true };
  const [table] = await sql(`SELECT "relkind" FROM pg_class WHERE "oid" = to_regclass('"rum"."error_events"')`);
  if (table?.['relkind'] !== 'p') throw new Error('rum.error_events is not partitioned: run the migrations first');
  // DDL here waits for ACCESS EXCLUSIVE locks, and inserts queue behind a waiting one: give up rather than stall ingest.
  await sql(`SET LOCAL lock_timeout = '5s'`);
  const today = utcDay(now);
  const created: string[] = [];
  for (let offset = -1; offset <= policy.aheadDays; offset++) {
    const name = await createDayPartition(sql, new Date(today.getTime() + offset * DAY_MS));
    if (name) created.push(name);
  }
  const dropped = await dropExpiredPartitions(sql, new Date(now.getTime() - policy.retentionDays * DAY_MS));
  const [{ rows }] = await sql(`SELECT count(*)::int AS "rows" FROM "rum"."error_events_default"`);
  return { created, dropped, skipped: false, defaultRows: rows as number };
}

/** Retention and look-ahead, provided by the app from its env. */
export abstract class EventPartitionSettings implements EventPartitionPolicy {
  abstract readonly retentionDays: number;
  abstract readonly aheadDays: number;
}

/** Keeps daily partitions of rum.error_events ahead of time and drops expired ones; safe on several instances at once. */
@Injectable()
export class EventPartitionMaintenance {
  private readonly defaultRows: Gauge;

  constructor(
    private readonly db: DataSource,
    private readonly settings: EventPartitionSettings,
    registry: MetricsRegistry,
  ) {
    // A gauge from the maintenance pass rather than a counter on insert, which would cost a query per batch.
    this.defaultRows = new Gauge({
      name: 'rum_error_events_default_partition_rows',
      help: 'Rows in rum.error_events_default (events of a day without its partition), as of the last maintenance pass',
      registers: [registry],
    });
  }

  async run(now = new Date()): Promise<EventPartitionRun> {
    const result = await this.db.transaction((manager) => maintainEventPartitions((text, params) => manager.query(text, params), this.settings, now));
    if (result.defaultRows !== undefined) this.defaultRows.set(result.defaultRows);
    return result;
  }
}
