import { randomUUID } from 'node:crypto';
import { isExclusionViolation } from '@acme/platform-persistence';
import { openRepositoryDatabase, RepositoryDatabase } from '../../../test/repository-database';
import { MigrationSliceRepository } from './migration-slice.repository';
import { MigrationRepository, MigrationScope } from './migration.repository';
import { TABLES } from './migration-tables';

describe('MigrationRepository (real PostgreSQL)', () => {
  let db: RepositoryDatabase;
  let migrations: MigrationRepository;
  let slices: MigrationSliceRepository;
  let acme: string;
  let globex: string;
  let organizationCount = 0;

  beforeAll(async () => {
    db = await openRepositoryDatabase('dm-migration-repo');
    migrations = new MigrationRepository(db.dataSource);
    slices = new MigrationSliceRepository();
    acme = await db.workspace();
    globex = await db.workspace();
  }, 60000);
  afterAll(() => db?.close());

  /** A migration between two fresh organizations of the workspace, holding them whole; two slices of 5. */
  const createMigration = async (workspaceId: string, options: { scope?: MigrationScope; total?: number } = {}) => {
    organizationCount += 1;
    const source = await db.organization(workspaceId, `src-${organizationCount}`);
    const target = await db.organization(workspaceId, `dst-${organizationCount}`);
    const id = randomUUID();
    const seq = await db.dataSource.transaction(async (manager) => {
      const created = await migrations.insert(manager, {
        id,
        workspaceId,
        sourceKey: source,
        targetKey: target,
        scope: options.scope ?? 'organization',
        totalDocuments: options.total ?? 10,
      });
      await migrations.holdWholeOrganization(manager, id, created, source, target);
      await slices.insertPlan(manager, id, [
        { slice: 0, keyFrom: '0', keyTo: '5' },
        { slice: 1, keyFrom: '5', keyTo: '10' },
      ]);
      return created;
    });
    return { id, seq, source, target, sourceId: `src-${organizationCount}`, targetId: `dst-${organizationCount}` };
  };

  const holdCount = async (migrationId: string): Promise<number> =>
    (
      await db.dataSource.query(`SELECT count(*)::int AS n FROM ${TABLES.migrationHolds} WHERE "migration_id" = $1`, [
        migrationId,
      ])
    )[0].n;

  it('reads a migration in its own workspace only, with public organization ids and progress', async () => {
    const migration = await createMigration(acme);
    await db.dataSource.transaction((manager) =>
      slices.checkpoint(manager, migration.id, 0, { cursor: '3', moved: 3, done: false }),
    );
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({
      id: migration.id,
      status: 'pending',
      sourceOrganizationId: migration.sourceId,
      targetOrganizationId: migration.targetId,
      totalDocuments: 10,
      movedDocuments: 3,
      failureReason: null,
      cancelledBy: null,
      startedAt: null,
      finishedAt: null,
    });
    expect(await migrations.findInWorkspace(globex, migration.id)).toBeUndefined();
    expect(await migrations.findInWorkspace(acme, randomUUID())).toBeUndefined();
    expect(await migrations.findInWorkspace(acme, 'not-a-uuid')).toBeUndefined();
  });

  it('refuses holds that overlap an unfinished migration of the same organization', async () => {
    const first = await createMigration(acme);
    const overlap = await db.dataSource
      .transaction(async (manager) => {
        const id = randomUUID();
        const seq = await migrations.insert(manager, {
          id,
          workspaceId: acme,
          sourceKey: first.source,
          targetKey: first.target,
          scope: 'documents',
          totalDocuments: 1,
        });
        await migrations.holdDocuments(manager, id, seq, first.source, first.target, ['1']);
      })
      .catch((error: unknown) => error);
    expect(isExclusionViolation(overlap)).toBe(true);
    // Listed documents of one organization held by two migrations: distinct documents do not conflict.
    const source = await db.organization(acme, 'listed-src');
    const target = await db.organization(acme, 'listed-dst');
    for (const keys of [['1', '2'], ['3']]) {
      await db.dataSource.transaction(async (manager) => {
        const id = randomUUID();
        const seq = await migrations.insert(manager, {
          id,
          workspaceId: acme,
          sourceKey: source,
          targetKey: target,
          scope: 'documents',
          totalDocuments: keys.length,
        });
        await migrations.holdDocuments(manager, id, seq, source, target, keys);
      });
    }
  });

  it('cancels only in the workspace that owns the migration, releasing its holds', async () => {
    const migration = await createMigration(acme);
    expect(
      await db.dataSource.transaction((manager) =>
        migrations.cancelInWorkspace(manager, globex, migration.id, 'by globex'),
      ),
    ).toBe(false);
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({
      status: 'pending',
      cancelledBy: null,
    });
    expect(await holdCount(migration.id)).toBe(2);
    expect(
      await db.dataSource.transaction((manager) =>
        migrations.cancelInWorkspace(manager, acme, migration.id, 'by acme'),
      ),
    ).toBe(true);
    const cancelled = await migrations.findInWorkspace(acme, migration.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: 'by acme' });
    expect(cancelled?.finishedAt).toBeInstanceOf(Date);
    expect(await holdCount(migration.id)).toBe(0);
    expect(
      await db.dataSource.transaction((manager) => migrations.cancelInWorkspace(manager, acme, migration.id, 'again')),
    ).toBe(false);
  });

  it('starts, sums progress, and finishes once, releasing the holds', async () => {
    const migration = await createMigration(acme, { total: 4 });
    const bystander = await createMigration(globex);
    await migrations.markStarted(migration.id);
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({ status: 'in_progress' });
    expect(await migrations.findInWorkspace(globex, bystander.id)).toMatchObject({ status: 'pending' });
    await db.dataSource.transaction(async (manager) => {
      await slices.checkpoint(manager, migration.id, 0, { cursor: '5', moved: 3, done: true });
      await slices.checkpoint(manager, migration.id, 1, { cursor: '6', moved: 1, done: false });
    });
    expect(await db.dataSource.transaction((manager) => migrations.lockProgress(manager, migration.id))).toEqual({
      status: 'in_progress',
      totalDocuments: 4,
      movedDocuments: 4,
      openSlices: 1,
    });
    expect(
      await db.dataSource.transaction((manager) => migrations.lockProgress(manager, randomUUID())),
    ).toBeUndefined();
    expect(
      await db.dataSource.transaction((manager) => migrations.markFinished(manager, migration.id, 'completed')),
    ).toBe(true);
    expect(
      await db.dataSource.transaction((manager) => migrations.markFinished(manager, migration.id, 'failed', 'late')),
    ).toBe(false);
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({
      status: 'completed',
      failureReason: null,
    });
    expect(await holdCount(migration.id)).toBe(0);
    expect(await holdCount(bystander.id)).toBe(2);
    await migrations.markStarted(migration.id);
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({ status: 'completed' });
  });

  it('fails a pending migration with its reason', async () => {
    const migration = await createMigration(acme);
    expect(
      await db.dataSource.transaction((manager) => migrations.markFinished(manager, migration.id, 'failed', 'why')),
    ).toBe(true);
    expect(await migrations.findInWorkspace(acme, migration.id)).toMatchObject({
      status: 'failed',
      failureReason: 'why',
    });
  });

  it('lists unfinished migrations with their open slices, and counts migrations by state', async () => {
    const open = await createMigration(globex);
    const allDone = await createMigration(globex);
    const finished = await createMigration(globex);
    await db.dataSource.transaction(async (manager) => {
      await slices.checkpoint(manager, open.id, 0, { cursor: '5', moved: 5, done: true });
      await slices.checkpoint(manager, allDone.id, 0, { cursor: '5', moved: 5, done: true });
      await slices.checkpoint(manager, allDone.id, 1, { cursor: '10', moved: 5, done: true });
      await migrations.markFinished(manager, finished.id, 'failed', 'gone');
    });
    const unfinished = await migrations.findUnfinishedWithOpenSlices();
    expect(unfinished).toEqual(
      expect.arrayContaining([
        { migrationId: open.id, openSlices: [1] },
        { migrationId: allDone.id, openSlices: [] },
      ]),
    );
    expect(unfinished.map((row) => row.migrationId)).not.toContain(finished.id);
    const counts = Object.fromEntries((await migrations.countByStatus()).map((row) => [row.status, row.count]));
    const [expected] = await db.dataSource.query(
      `SELECT count(*) FILTER (WHERE "status" = 'failed')::int AS failed, count(*) FILTER (WHERE "status" = 'pending')::int AS pending FROM ${TABLES.migrations}`,
    );
    expect(counts).toMatchObject({ failed: expected.failed, pending: expected.pending });
    expect(counts['failed']).toBeGreaterThanOrEqual(2);
  });
});
