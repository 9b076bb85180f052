import { randomUUID } from 'node:crypto';
import { openRepositoryDatabase, RepositoryDatabase } from '../../../test/repository-database';
import { MigrationSliceRepository } from './migration-slice.repository';
import { MigrationRepository } from './migration.repository';

describe('MigrationSliceRepository (real PostgreSQL)', () => {
  let db: RepositoryDatabase;
  let slices: MigrationSliceRepository;
  let migrations: MigrationRepository;

  beforeAll(async () => {
    db = await openRepositoryDatabase('dm-slice-repo');
    slices = new MigrationSliceRepository();
    migrations = new MigrationRepository(db.dataSource);
  }, 60000);
  afterAll(() => db?.close());

  const createMigration = async (label: string) => {
    const workspaceId = await db.workspace();
    const source = await db.organization(workspaceId, `${label}-src`);
    const target = await db.organization(workspaceId, `${label}-dst`);
    const id = randomUUID();
    await db.dataSource.transaction(async (manager) => {
      await migrations.insert(manager, {
        id,
        workspaceId,
        sourceKey: source,
        targetKey: target,
        scope: 'organization',
        totalDocuments: 20,
      });
      await slices.insertPlan(manager, id, [
        { slice: 0, keyFrom: '0', keyTo: '10' },
        { slice: 1, keyFrom: '10', keyTo: '20' },
      ]);
    });
    return { id, source, target };
  };

  const lock = (migrationId: string, slice: number) =>
    db.dataSource.transaction((manager) => slices.lockForBatch(manager, migrationId, slice));

  it('reads a slice with its migration, cursor at the start of its range', async () => {
    const migration = await createMigration('read');
    expect(await lock(migration.id, 1)).toEqual({
      status: 'pending',
      scope: 'organization',
      sourceKey: migration.source,
      targetKey: migration.target,
      cursor: '10',
      keyTo: '20',
      done: false,
    });
    expect(await lock(migration.id, 2)).toBeUndefined();
    expect(await lock(randomUUID(), 0)).toBeUndefined();
  });

  it('advances the checkpoint of one slice of one migration only', async () => {
    const mine = await createMigration('mine');
    const theirs = await createMigration('theirs');
    await db.dataSource.transaction(async (manager) => {
      await slices.checkpoint(manager, mine.id, 0, { cursor: '4', moved: 4, done: false });
      await slices.checkpoint(manager, mine.id, 0, { cursor: '10', moved: 3, done: true });
    });
    expect(await lock(mine.id, 0)).toMatchObject({ cursor: '10', done: true });
    expect(await lock(mine.id, 1)).toMatchObject({ cursor: '10', done: false });
    expect(await lock(theirs.id, 0)).toMatchObject({ cursor: '0', done: false });
    expect(await db.dataSource.transaction((manager) => migrations.lockProgress(manager, mine.id))).toMatchObject({
      movedDocuments: 7,
      openSlices: 1,
    });
    expect(await db.dataSource.transaction((manager) => migrations.lockProgress(manager, theirs.id))).toMatchObject({
      movedDocuments: 0,
      openSlices: 2,
    });
  });

  it('lets one runner at a time hold a slice', async () => {
    const migration = await createMigration('exclusive');
    await db.dataSource.transaction(async (runner) => {
      await slices.lockForBatch(runner, migration.id, 0);
      const second = db.dataSource.transaction(async (other) => {
        await other.query(`SET LOCAL lock_timeout = '200ms'`);
        await slices.lockForBatch(other, migration.id, 0);
      });
      await expect(second).rejects.toMatchObject({ driverError: { code: '55P03' } });
      await db.dataSource.transaction(async (other) => {
        await other.query(`SET LOCAL lock_timeout = '200ms'`);
        expect(await slices.lockForBatch(other, migration.id, 1)).toMatchObject({ cursor: '10' });
      });
    });
  });
});
