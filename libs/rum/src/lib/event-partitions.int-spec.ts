import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@acme/platform-observability';
import { createDataSource, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { RUM_MIGRATIONS } from '../migrations';
import {
  DAY_MS,
  EVENT_PARTITION_LOCK,
  EventPartitionMaintenance,
  eventPartitionName,
  utcDay,
} from './event-partitions';
import { IngestService } from './ingest.service';
import { ErrorEventsRepository } from './repositories/error-events.repository';
import { RulesRepository } from './repositories/rules.repository';
import { RuleSetCache } from './rule-set.cache';
import { RUM_SCHEMA, rumTable } from '@acme/rum-schema';

const now = new Date();
const today = utcDay(now);
/** Noon UTC of the day `offset` days from today. */
const dayAt = (offset: number) => new Date(today.getTime() + offset * DAY_MS + DAY_MS / 2);
const partition = (offset: number) => eventPartitionName(new Date(today.getTime() + offset * DAY_MS));
const FAR_FUTURE = new Date(Date.UTC(2150, 0, 1));

/** Rows written before the migration: several days, one older than retention, two beyond the days created ahead. */
const SEEDED = [
  { offset: -40, lands: 'error_events_default' },
  { offset: -10, lands: partition(-10) },
  { offset: -10, lands: partition(-10) },
  { offset: -1, lands: partition(-1) },
  { offset: 0, lands: partition(0) },
  { offset: 2, lands: partition(2) },
  { offset: 10, lands: 'error_events_default' },
];

describe('partitioned rum.error_events (real Postgres)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let registry: MetricsRegistry;
  let maintenance: EventPartitionMaintenance;
  let before: Record<string, unknown>[];

  const rows = (table = 'error_events'): Promise<Record<string, unknown>[]> =>
    db.query(
      `SELECT "id", "application_id", "occurred_at", "payload"::text AS "payload", tableoid::regclass::text AS "part" FROM ${rumTable(table)} ORDER BY "id"`,
    );
  const partitions = async (): Promise<string[]> =>
    (
      await db.query(
        `SELECT c."relname" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid" WHERE i."inhparent" = 'rum.error_events'::regclass ORDER BY 1`,
      )
    ).map((row: { relname: string }) => row.relname);
  const relkind = async (): Promise<string> =>
    (await db.query(`SELECT "relkind" FROM pg_class WHERE "oid" = 'rum.error_events'::regclass`))[0].relkind;

  beforeAll(async () => {
    database = await createTestDatabase('rules-partitions');
    // The schema as it was before partitioning, with rows in it.
    const old = await createDataSource({
      url: database.url,
      schema: RUM_SCHEMA,
      migrations: RUM_MIGRATIONS.slice(0, 2),
    }).initialize();
    await runMigrationsUnderLock(old, RUM_SCHEMA);
    for (const [i, { offset }] of SEEDED.entries()) {
      await old.query(
        `INSERT INTO ${rumTable('error_events')} ("application_id", "occurred_at", "payload") VALUES ($1, $2, $3)`,
        [`app${i % 2}`, dayAt(offset), JSON.stringify({ i, offset })],
      );
    }
    await old.query(
      `INSERT INTO ${rumTable('error_events')} ("application_id", "occurred_at", "payload") VALUES ('app0', $1, '{"far": true}')`,
      [FAR_FUTURE],
    );
    before = await old.query(
      `SELECT "id", "application_id", "occurred_at", "payload"::text AS "payload" FROM ${rumTable('error_events')} ORDER BY "id"`,
    );
    await old.destroy();

    // Up to partitioning: the later migrations are not this test's subject, and `down` must undo partitioning.
    db = await createDataSource({
      url: database.url,
      schema: RUM_SCHEMA,
      migrations: RUM_MIGRATIONS.slice(0, 3),
    }).initialize();
    expect(await runMigrationsUnderLock(db, RUM_SCHEMA)).toEqual(['PartitionErrorEvents1764100000000']);
    registry = new MetricsRegistry();
    maintenance = new EventPartitionMaintenance(db, { retentionDays: 30, aheadDays: 3 }, registry);
  }, 60000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps every row with its id and payload, each in the partition of its day or the default one', async () => {
    expect(await relkind()).toBe('p');
    const after = await rows();
    expect(after.map(({ part: _, ...row }) => row)).toEqual(before);
    expect(after.map((row) => row['part'])).toEqual([
      ...SEEDED.map(({ lands }) => `rum.${lands}`),
      'rum.error_events_default',
    ]);
    expect(await partitions()).toEqual(
      [
        'error_events_default',
        partition(-10),
        partition(-1),
        partition(0),
        partition(1),
        partition(2),
        partition(3),
      ].sort(),
    );
    const [{ id }] = await db.query(
      `INSERT INTO ${rumTable('error_events')} ("application_id", "occurred_at", "payload") VALUES ('app0', now(), '{}') RETURNING "id"`,
    );
    expect(Number(id)).toBeGreaterThan(Math.max(...before.map((row) => Number(row['id']))));
    await db.query(`DELETE FROM ${rumTable('error_events')} WHERE "id" = $1`, [id]);
  });

  it('converts back on down, and forward again, losing nothing', async () => {
    await db.undoLastMigration({ transaction: 'each' });
    expect(await relkind()).toBe('r');
    expect((await rows()).map(({ part: _, ...row }) => row)).toEqual(before);
    expect(await runMigrationsUnderLock(db, RUM_SCHEMA)).toEqual(['PartitionErrorEvents1764100000000']);
    expect((await rows()).map(({ part: _, ...row }) => row)).toEqual(before);
  });

  it('creates partitions ahead, moves waiting default rows into a new partition, and drops what is past retention', async () => {
    const first = await maintenance.run(now);
    // today-1 .. today+3 exist since the migration; the row 40 days old was in the default partition and is deleted.
    expect(first).toEqual({ created: [], dropped: [], skipped: false, defaultRows: 2 });
    expect(await registry.getSingleMetricAsString('rum_error_events_default_partition_rows')).toMatch(/ 2$/m);

    const later = await maintenance.run(new Date(now.getTime() + 11 * DAY_MS));
    expect(later).toEqual({
      created: [10, 11, 12, 13, 14].map(partition),
      dropped: [],
      skipped: false,
      defaultRows: 1,
    });
    const moved = (await rows()).filter((row) => JSON.parse(row['payload'] as string).offset === 10);
    expect(moved.map((row) => row['part'])).toEqual([`rum.${partition(10)}`]);
    const indexes = await db.query(
      `SELECT "indexdef" FROM pg_indexes WHERE "schemaname" = $2 AND "tablename" = $1 ORDER BY 1`,
      [partition(10), RUM_SCHEMA],
    );
    expect(indexes.map((row: { indexdef: string }) => row.indexdef.replace(/^.* USING /, ''))).toEqual([
      'btree (application_id, occurred_at)',
      'btree (id, occurred_at)',
    ]);

    const muchLater = await maintenance.run(new Date(now.getTime() + 25 * DAY_MS));
    expect(muchLater.dropped).toEqual([partition(-10)]);
    expect(muchLater.created).toEqual([24, 25, 26, 27, 28].map(partition));
    expect(await partitions()).not.toContain(partition(-10));
    expect((await rows()).map((row) => JSON.parse(row['payload'] as string).offset)).not.toContain(-10);
    expect(await registry.getSingleMetricAsString('rum_error_events_default_partition_rows')).toMatch(/ 1$/m);
  });

  it('skips a pass while another instance holds the lock, and never lets two passes work at once', async () => {
    const holder = db.createQueryRunner();
    await holder.startTransaction();
    try {
      expect(
        (await holder.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS "locked"`, [EVENT_PARTITION_LOCK]))[0]
          .locked,
      ).toBe(true);
      expect(await maintenance.run(new Date(now.getTime() + 40 * DAY_MS))).toEqual({
        created: [],
        dropped: [],
        skipped: true,
      });
    } finally {
      await holder.commitTransaction();
      await holder.release();
    }
    const other = new EventPartitionMaintenance(db, { retentionDays: 30, aheadDays: 3 }, new MetricsRegistry());
    const at = new Date(now.getTime() + 40 * DAY_MS);
    const results = await Promise.all([maintenance.run(at), other.run(at)]);
    expect(results.flatMap((result) => result.created).sort()).toEqual([39, 40, 41, 42, 43].map(partition));
  });

  it('stores an event of year 2150 through the ingest path, in the default partition', async () => {
    const cache = { matcherFor: async () => ({ ruleIds: [], match: () => -1 }) } as unknown as RuleSetCache;
    const ingest = new IngestService(new ErrorEventsRepository(db), new RulesRepository(db), cache);
    expect(await ingest.ingest('app-future', 0, [{ date: FAR_FUTURE.getTime() + 1000, future: true }])).toEqual({
      accepted: 1,
      dropped: 0,
    });
    expect(await ingest.storedEvents('app-future', FAR_FUTURE, new Date(FAR_FUTURE.getTime() + DAY_MS))).toEqual([
      { date: FAR_FUTURE.getTime() + 1000, future: true },
    ]);
    const [{ part }] = await db.query(
      `SELECT tableoid::regclass::text AS "part" FROM ${rumTable('error_events')} WHERE "application_id" = 'app-future'`,
    );
    expect(part).toBe('rum.error_events_default');
  });
});
