import { RumTestDatabase } from '../../../test/rum-test-database';
import { rumTable } from '@acme/rum-schema';
import { EventPartitionsRepository } from './event-partitions.repository';

const DAY = new Date('2030-05-01T00:00:00.000Z');
const NEXT = new Date('2030-05-02T00:00:00.000Z');
const AFTER = new Date('2030-05-03T00:00:00.000Z');

describe('EventPartitionsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let partitions: EventPartitionsRepository;
  const insert = (applicationId: string, at: Date) =>
    database.db.query(
      `INSERT INTO ${rumTable('error_events')} ("application_id", "occurred_at", "payload") VALUES ($1, $2, '{}')`,
      [applicationId, at],
    );

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-event-partitions-repo');
    partitions = new EventPartitionsRepository((text, params) => database.db.query(text, params));
  }, 60000);
  afterAll(() => database?.stop());

  it('reads the catalogue of the partitioned table', async () => {
    expect(await partitions.parentIsPartitioned()).toBe(true);
    expect(await partitions.list()).toContain('error_events_default');
    expect(await partitions.exists('error_events_default')).toBe(true);
    expect(await partitions.exists('error_events_p20300501')).toBe(false);
  });

  it('creates a day’s partition, moving the default partition’s rows of that day, and keeps other rows', async () => {
    await insert('app-a', new Date(DAY.getTime() + 1000));
    await insert('app-b', new Date(NEXT.getTime() + 1000));
    expect(await partitions.defaultHasRows(DAY, NEXT)).toBe(true);
    const before = await partitions.countDefaultRows();
    await partitions.createMovingDefaultRows('error_events_p20300501', DAY, NEXT);
    expect(await partitions.countDefaultRows()).toBe(before - 1);
    expect(await partitions.defaultHasRows(DAY, NEXT)).toBe(false);
    expect(await partitions.defaultHasRows(NEXT, AFTER)).toBe(true);
    const [{ part }] = await database.db.query(
      `SELECT tableoid::regclass::text AS "part" FROM ${rumTable('error_events')} WHERE "application_id" = 'app-a'`,
    );
    expect(part).toBe('rum.error_events_p20300501');
  });

  it('creates an empty partition, drops partitions and deletes default rows before a cutoff', async () => {
    await partitions.create('error_events_p20300503', AFTER, new Date(AFTER.getTime() + 86_400_000));
    expect(await partitions.list()).toEqual(
      expect.arrayContaining(['error_events_p20300501', 'error_events_p20300503']),
    );
    await partitions.drop('error_events_p20300503');
    expect(await partitions.exists('error_events_p20300503')).toBe(false);
    await partitions.deleteDefaultRowsBefore(AFTER);
    expect(await partitions.defaultHasRows(NEXT, AFTER)).toBe(false);
  });

  it('takes the advisory lock once per transaction holder', async () => {
    const holder = database.db.createQueryRunner();
    await holder.startTransaction();
    try {
      expect(
        await new EventPartitionsRepository((text, params) => holder.query(text, params)).tryLock('rum:test-lock'),
      ).toBe(true);
      await database.db.transaction(async (manager) => {
        expect(
          await new EventPartitionsRepository((text, params) => manager.query(text, params)).tryLock('rum:test-lock'),
        ).toBe(false);
      });
    } finally {
      await holder.commitTransaction();
      await holder.release();
    }
  });
});
