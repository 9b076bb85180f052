import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { AppError } from '@acme/platform-errors';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { createDataSource } from './data-source';
import { runMigrationsUnderLock } from './migrations-runner';
import { isUniqueViolation, mapUniqueViolation, withTransaction } from './transactions';

class CreateWidgets1700000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    // A slow migration widens the window in which concurrent starters could collide.
    await runner.query(`SELECT pg_sleep(0.3)`);
    await runner.query(`CREATE TABLE "probe"."widgets" (id int PRIMARY KEY, name text NOT NULL UNIQUE)`);
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "probe"."widgets"`);
  }
}

describe('persistence (real Postgres)', () => {
  let database: TestDatabase;
  let sources: DataSource[];

  beforeAll(async () => {
    database = await createTestDatabase('persistence');
    sources = await Promise.all(
      [1, 2, 3].map(() => createDataSource({ url: database.url, schema: 'probe', migrations: [CreateWidgets1700000000000], poolSize: 2 }).initialize()),
    );
  });

  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await database.drop();
  });

  it('applies migrations once when several instances start together', async () => {
    const applied = await Promise.all(sources.map((source) => runMigrationsUnderLock(source, 'probe')));
    expect(applied.flat()).toEqual(['CreateWidgets1700000000000']);
    const [{ count }] = await sources[0].query(`SELECT count(*)::int AS count FROM "probe"."typeorm_migrations"`);
    expect(count).toBe(1);
  });

  it('rolls a failed transaction back completely', async () => {
    const failure = await withTransaction(sources[0], async (manager) => {
      await manager.query(`INSERT INTO "probe"."widgets" VALUES (1, 'a')`);
      await manager.query(`INSERT INTO "probe"."widgets" VALUES (2, 'a')`);
    }).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    const rows = await sources[0].query(`SELECT * FROM "probe"."widgets"`);
    expect(rows).toEqual([]);
  });

  it('maps a unique violation to the conflict the caller names, and nothing else', async () => {
    await sources[0].query(`INSERT INTO "probe"."widgets" VALUES (10, 'taken')`);
    const conflict = (constraint?: string) => new AppError('WIDGET_CONFLICT', 'conflict', `exists (${constraint})`);
    await expect(mapUniqueViolation(() => sources[1].query(`INSERT INTO "probe"."widgets" VALUES (11, 'taken')`), conflict)).rejects.toMatchObject({
      code: 'WIDGET_CONFLICT',
      message: 'exists (widgets_name_key)',
    });
    await expect(mapUniqueViolation(() => sources[1].query(`SELECT * FROM "probe"."nope"`), conflict)).rejects.not.toBeInstanceOf(AppError);
  });
});
