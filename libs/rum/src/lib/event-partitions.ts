import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@acme/platform-observability';
import { withTransaction } from '@acme/platform-persistence';
import { EventPartitionsRepository, SqlQuery } from './repositories/event-partitions.repository';

export type { SqlQuery };

export const DAY_MS = 86_400_000;
/** Held for the transaction of one pass; instances (and the cron command) that find it taken skip their pass. */
export const EVENT_PARTITION_LOCK = 'rum:error_events:partitions';
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
 * partition already holds for that day move into it.
 */
export async function createDayPartition(sql: SqlQuery, day: Date): Promise<string | undefined> {
  const partitions = new EventPartitionsRepository(sql);
  const name = eventPartitionName(day);
  if (await partitions.exists(name)) return undefined;
  const end = new Date(day.getTime() + DAY_MS);
  if (await partitions.defaultHasRows(day, end)) await partitions.createMovingDefaultRows(name, day, end);
  else await partitions.create(name, day, end);
  return name;
}

/** Drops the daily partitions whose whole day is before `cutoff` and the default partition's rows before it. */
export async function dropExpiredPartitions(sql: SqlQuery, cutoff: Date): Promise<string[]> {
  const partitions = new EventPartitionsRepository(sql);
  const dropped: string[] = [];
  for (const name of await partitions.list()) {
    const day = partitionDay(name);
    if (!day || day.getTime() + DAY_MS > cutoff.getTime()) continue;
    await partitions.drop(name);
    dropped.push(name);
  }
  await partitions.deleteDefaultRowsBefore(cutoff);
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
export async function maintainEventPartitions(
  sql: SqlQuery,
  policy: EventPartitionPolicy,
  now = new Date(),
): Promise<EventPartitionRun> {
  const partitions = new EventPartitionsRepository(sql);
  if (!(await partitions.tryLock(EVENT_PARTITION_LOCK))) return { created: [], dropped: [], skipped: true };
  if (!(await partitions.parentIsPartitioned()))
    throw new Error('rum.error_events is not partitioned: run the migrations first');
  // DDL here waits for ACCESS EXCLUSIVE locks, and inserts queue behind a waiting one: give up rather than stall ingest.
  await partitions.setLockTimeout(5);
  const today = utcDay(now);
  const created: string[] = [];
  for (let offset = -1; offset <= policy.aheadDays; offset++) {
    const name = await createDayPartition(sql, new Date(today.getTime() + offset * DAY_MS));
    if (name) created.push(name);
  }
  const dropped = await dropExpiredPartitions(sql, new Date(now.getTime() - policy.retentionDays * DAY_MS));
  return { created, dropped, skipped: false, defaultRows: await partitions.countDefaultRows() };
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
    const result = await withTransaction(this.db, (manager) =>
      maintainEventPartitions((text, params) => manager.query(text, params), this.settings, now),
    );
    if (result.defaultRows !== undefined) this.defaultRows.set(result.defaultRows);
    return result;
  }
}
