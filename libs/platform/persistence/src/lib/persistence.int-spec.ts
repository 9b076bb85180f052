import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { AppError } from '@acme/platform-errors';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { createDataSource, queryRows } from './data-source';
import { TIMESTAMP_AS_TEXT } from './timestamp-text';
import { runMigrationsUnderLock } from './migrations-runner';
import {
  affectedRows,
  firstRow,
  isExclusionViolation,
  isUniqueViolation,
  mapUniqueViolation,
  pgErrorDetail,
  withTransaction,
} from './transactions';
import { isUuid } from './uuid';

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
      [1, 2, 3].map(() =>
        createDataSource({
          url: database.url,
          schema: 'probe',
          migrations: [CreateWidgets1700000000000],
          poolSize: 2,
        }).initialize(),
      ),
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
    await expect(
      mapUniqueViolation(() => sources[1].query(`INSERT INTO "probe"."widgets" VALUES (11, 'taken')`), conflict),
    ).rejects.toMatchObject({
      code: 'WIDGET_CONFLICT',
      message: 'exists (widgets_name_key)',
    });
    await expect(
      mapUniqueViolation(() => sources[1].query(`SELECT * FROM "probe"."nope"`), conflict),
    ).rejects.not.toBeInstanceOf(AppError);
  });

  it('names exclusion violations and carries the DETAIL of a violation', async () => {
    await sources[0].query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await sources[0].query(`CREATE TABLE "probe"."spans" (r int8range, EXCLUDE USING gist (r WITH &&))`);
    await sources[0].query(`INSERT INTO "probe"."spans" VALUES ('[1,5)')`);
    const overlap = await sources[0]
      .query(`INSERT INTO "probe"."spans" VALUES ('[3,8)')`)
      .catch((error: unknown) => error);
    expect(isExclusionViolation(overlap)).toBe(true);
    expect(isExclusionViolation(overlap, 'spans_r_excl')).toBe(true);
    expect(isUniqueViolation(overlap)).toBe(false);
    await sources[0].query(`INSERT INTO "probe"."widgets" VALUES (20, 'dup')`);
    const duplicate = await sources[0]
      .query(`INSERT INTO "probe"."widgets" VALUES (21, 'dup')`)
      .catch((error: unknown) => error);
    expect(isExclusionViolation(duplicate)).toBe(false);
    expect(pgErrorDetail(duplicate)).toBe('Key (name)=(dup) already exists.');
    expect(pgErrorDetail(new Error('plain'))).toBeUndefined();
  });

  it('counts the rows an UPDATE changed and takes the one row an aggregate yields', async () => {
    await sources[0].query(`INSERT INTO "probe"."widgets" VALUES (30, 'x30'), (31, 'x31')`);
    expect(
      affectedRows(await sources[0].query(`UPDATE "probe"."widgets" SET "name" = "name" || '!' WHERE "id" >= 30`)),
    ).toBe(2);
    expect(affectedRows(await sources[0].query(`DELETE FROM "probe"."widgets" WHERE "id" = 99`))).toBe(0);
    expect(
      firstRow(await sources[0].query(`SELECT count(*)::int AS n FROM "probe"."widgets" WHERE "id" >= 30`)),
    ).toEqual({ n: 2 });
    expect(() => firstRow([])).toThrow('Expected a row');
  });

  it("queryRows: rows of reads and RETURNING writes on the pool, and on the transaction's own connection inside one", async () => {
    const db = sources[0];
    expect(
      await queryRows(db, `INSERT INTO "probe"."widgets" VALUES ($1, $2) RETURNING id, name`, [40, 'x40']),
    ).toEqual([{ id: 40, name: 'x40' }]);
    // UPDATE and DELETE answer their rows too (TypeORM's query() would answer [rows, count] for them).
    expect(await queryRows(db, `UPDATE "probe"."widgets" SET name = 'y40' WHERE id = $1 RETURNING name`, [40])).toEqual(
      [{ name: 'y40' }],
    );
    expect(await queryRows(db, `DELETE FROM "probe"."widgets" WHERE id = $1`, [99])).toEqual([]);
    expect(await queryRows(db.manager, `SELECT name FROM "probe"."widgets" WHERE id = $1`, [40])).toEqual([
      { name: 'y40' },
    ]);

    const seen = await withTransaction(db, async (manager) => {
      const inserted = await queryRows<{ id: number }>(
        manager,
        `INSERT INTO "probe"."widgets" VALUES (41, 'x41') RETURNING id`,
      );
      const updated = await queryRows<{ id: number }>(
        manager,
        `UPDATE "probe"."widgets" SET name = 'y41' WHERE id = 41 RETURNING id`,
      );
      const inside = await queryRows(manager, `SELECT name FROM "probe"."widgets" WHERE id = 41`);
      // The pool is another connection: the uncommitted row is not visible there.
      const outside = await queryRows(db, `SELECT name FROM "probe"."widgets" WHERE id = 41`);
      return { inserted, updated, inside, outside };
    });
    expect(seen).toEqual({ inserted: [{ id: 41 }], updated: [{ id: 41 }], inside: [{ name: 'y41' }], outside: [] });

    const failure = await withTransaction(db, async (manager) => {
      await queryRows(manager, `INSERT INTO "probe"."widgets" VALUES (42, 'x42')`);
      throw new Error('abandon');
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('abandon');
    expect(await queryRows(db, `SELECT id FROM "probe"."widgets" WHERE id = 42`)).toEqual([]);
  });

  it('queryRows: a statement object keeps its name and type parsers, on the pool and inside a transaction', async () => {
    const db = sources[0];
    const statement = {
      name: 'probe_now_as_text',
      text: `SELECT '2026-01-02 03:04:05.5'::timestamp AS at, $1::int AS n`,
      types: TIMESTAMP_AS_TEXT,
    };
    // TIMESTAMP_AS_TEXT keeps the text PostgreSQL sent; the default parser would answer a Date.
    expect(await queryRows(db, statement, [1])).toEqual([{ at: '2026-01-02 03:04:05.5', n: 1 }]);
    expect(await queryRows(db, statement, [2])).toEqual([{ at: '2026-01-02 03:04:05.5', n: 2 }]);
    const inside = await withTransaction(db, async (manager) => {
      await queryRows(manager, `INSERT INTO "probe"."widgets" VALUES (43, 'x43')`);
      return queryRows(
        manager,
        {
          text: `SELECT name, '2026-01-02 03:04:05'::timestamp AS at FROM "probe"."widgets" WHERE id = $1`,
          types: TIMESTAMP_AS_TEXT,
        },
        [43],
      );
    });
    expect(inside).toEqual([{ name: 'x43', at: '2026-01-02 03:04:05' }]);
  });

  it('tells uuids from other strings', () => {
    expect(isUuid('0b7e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isUuid('0B7E4C1A-2F3D-4E5F-8A9B-0C1D2E3F4A5B')).toBe(true);
    for (const value of ['', 'not-a-uuid', '0b7e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5', "' OR 1=1 --"])
      expect(isUuid(value)).toBe(false);
  });
});
