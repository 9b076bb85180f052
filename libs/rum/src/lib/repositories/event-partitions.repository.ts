import { rumTable } from '@acme/rum-schema';

/** A query function returning rows: TypeORM's `manager.query`, or a pg client's wrapped, so a cron command shares this SQL. */
export type SqlQuery = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const PARENT = rumTable('error_events');
const DEFAULT_PARTITION = rumTable('error_events_default');
const COLUMNS = `"id", "application_id", "occurred_at", "received_at", "payload"`;

/** A day's bounds: DDL takes no parameters, and ISO timestamps from a Date are safe literals. */
const bounds = (from: Date, to: Date) => `FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`;

/**
 * The catalogue and DDL statements of rum.error_events' daily partitions (event-partitions.ts decides when to
 * run them). Works on any SqlQuery, inside the caller's transaction; partition names come from
 * eventPartitionName, never from input.
 */
export class EventPartitionsRepository {
  constructor(private readonly sql: SqlQuery) {}

  /** Transaction-scoped advisory lock; false when another session holds it. */
  async tryLock(name: string): Promise<boolean> {
    const [{ locked }] = await this.sql(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS "locked"`, [name]);
    return locked === true;
  }

  /** Bounds how long DDL waits for its lock in this transaction (inserts queue behind a waiting one). */
  async setLockTimeout(seconds: number): Promise<void> {
    await this.sql(`SET LOCAL lock_timeout = '${Math.floor(seconds)}s'`);
  }

  async parentIsPartitioned(): Promise<boolean> {
    const [table] = await this.sql(`SELECT "relkind" FROM pg_class WHERE "oid" = to_regclass($1)`, [PARENT]);
    return table?.['relkind'] === 'p';
  }

  async exists(partition: string): Promise<boolean> {
    const [{ exists }] = await this.sql(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, [rumTable(partition)]);
    return exists === true;
  }

  /** Names of the tables attached to rum.error_events, sorted. */
  async list(): Promise<string[]> {
    const rows = await this.sql(
      `SELECT c."relname" AS "name" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid" WHERE i."inhparent" = to_regclass($1) ORDER BY 1`,
      [PARENT],
    );
    return rows.map((row) => row['name'] as string);
  }

  async defaultHasRows(from: Date, to: Date): Promise<boolean> {
    const [{ waiting }] = await this.sql(
      `SELECT EXISTS (SELECT 1 FROM ${DEFAULT_PARTITION} WHERE "occurred_at" >= $1 AND "occurred_at" < $2) AS "waiting"`,
      [from, to],
    );
    return waiting === true;
  }

  async create(partition: string, from: Date, to: Date): Promise<void> {
    await this.sql(`CREATE TABLE ${rumTable(partition)} PARTITION OF ${PARENT} ${bounds(from, to)}`);
  }

  /**
   * A new partition for a range the default partition holds rows of (Postgres refuses the bounds while they
   * sit there): the rows move into a detached table, which is then attached. ATTACH builds the primary key
   * and index to match the parent's.
   */
  async createMovingDefaultRows(partition: string, from: Date, to: Date): Promise<void> {
    const table = rumTable(partition);
    await this.sql(`CREATE TABLE ${table} (LIKE ${PARENT} INCLUDING DEFAULTS)`);
    await this.sql(
      `WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE "occurred_at" >= $1 AND "occurred_at" < $2 RETURNING ${COLUMNS})
       INSERT INTO ${table} (${COLUMNS}) SELECT ${COLUMNS} FROM moved`,
      [from, to],
    );
    await this.sql(`ALTER TABLE ${PARENT} ATTACH PARTITION ${table} ${bounds(from, to)}`);
  }

  async drop(partition: string): Promise<void> {
    await this.sql(`DROP TABLE ${rumTable(partition)}`);
  }

  async deleteDefaultRowsBefore(cutoff: Date): Promise<void> {
    await this.sql(`DELETE FROM ${DEFAULT_PARTITION} WHERE "occurred_at" < $1`, [cutoff]);
  }

  async countDefaultRows(): Promise<number> {
    const [{ rows }] = await this.sql(`SELECT count(*)::int AS "rows" FROM ${DEFAULT_PARTITION}`);
    return rows as number;
  }
}
