import { randomUUID } from 'node:crypto';
import { isUniqueViolation, pgErrorDetail } from '@acme/platform-persistence';
import { openRepositoryDatabase, RepositoryDatabase } from '../../../test/repository-database';
import { describeDuplicate } from '../workspace.service';
import { DocumentRepository } from './document.repository';
import { MigrationRepository } from './migration.repository';
import { TABLES } from './migration-tables';

describe('DocumentRepository (real PostgreSQL)', () => {
  let db: RepositoryDatabase;
  let documents: DocumentRepository;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    db = await openRepositoryDatabase('dm-document-repo');
    documents = new DocumentRepository(db.replicas);
    acme = await db.workspace();
    globex = await db.workspace();
  }, 60000);
  afterAll(() => db?.close());

  const idsIn = async (organizationKey: string): Promise<string[]> =>
    (
      await db.dataSource.query(`SELECT "id" FROM ${TABLES.documents} WHERE "organization_key" = $1 ORDER BY "key"`, [
        organizationKey,
      ])
    ).map((row: { id: string }) => row.id);

  it('imports documents with their records and counts them per organization only', async () => {
    const mine = await db.organization(acme, 'import');
    const theirs = await db.organization(globex, 'import');
    const stats = await db.dataSource.transaction((manager) =>
      documents.insertWithRecords(manager, mine, [
        {
          id: 'd1',
          title: 'one',
          records: [
            { id: 'r1', kind: 'note', body: { a: 1 } },
            { id: 'r2', kind: 'note', body: {} },
          ],
        },
        { id: 'd2', title: 'two' },
      ]),
    );
    expect(stats).toEqual({ documents: 2, records: 2 });
    await db.documents(theirs, 'd', 3);
    expect(await documents.countInOrganization(mine)).toEqual({ documents: 2, records: 2 });
    expect(await documents.countInOrganization(theirs)).toEqual({ documents: 3, records: 3 });
    const [content] = await db.dataSource.query(
      `SELECT "content" FROM ${TABLES.documents} WHERE "organization_key" = $1 AND "id" = 'd2'`,
      [mine],
    );
    expect(content).toEqual({ content: '' });
  });

  it('refuses a duplicate id within one organization, naming it in the DETAIL, and imports nothing', async () => {
    const key = await db.organization(acme, 'duplicates');
    await db.documents(key, 'dup', 2);
    const failure = await db.dataSource
      .transaction((manager) =>
        documents.insertWithRecords(manager, key, [
          { id: 'fresh', title: 'f' },
          { id: 'dup-2', title: 'again' },
        ]),
      )
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    expect(describeDuplicate(pgErrorDetail(failure))).toBe("id 'dup-2'");
    expect(await idsIn(key)).toEqual(['dup-1', 'dup-2']);
  });

  it('finds listed documents of the organization only, and its key range', async () => {
    const mine = await db.organization(acme, 'listed');
    const theirs = await db.organization(globex, 'listed');
    const keys = await db.documents(mine, 'x', 3);
    await db.documents(theirs, 'y', 2);
    const listed = ['x-3', 'x-1', 'y-1', 'missing'];
    const found = await db.dataSource.transaction((manager) => documents.lockKeysByIds(manager, mine, listed));
    expect(found).toEqual([keys[0], keys[2]]);
    expect(await db.dataSource.transaction((manager) => documents.missingIds(manager, mine, listed))).toEqual([
      'y-1',
      'missing',
    ]);
    const none = await db.dataSource.transaction((manager) => documents.lockKeysByIds(manager, mine, ['missing']));
    expect(none).toEqual([]);
    expect(await db.dataSource.transaction((manager) => documents.keyRange(manager, mine))).toEqual({
      total: 3,
      minKey: keys[0],
      maxKey: keys[2],
    });
    const empty = await db.organization(acme, 'empty');
    expect(await db.dataSource.transaction((manager) => documents.keyRange(manager, empty))).toEqual({
      total: 0,
      minKey: null,
      maxKey: null,
    });
  });

  it('moves a whole-organization batch within its key range, from the source organization only', async () => {
    const source = await db.organization(acme, 'move-src');
    const target = await db.organization(acme, 'move-dst');
    const bystander = await db.organization(globex, 'bystander');
    const keys = await db.documents(source, 's', 5);
    await db.documents(bystander, 'b', 2);
    const batch = {
      migrationId: randomUUID(),
      scope: 'organization' as const,
      sourceKey: source,
      targetKey: target,
      limit: 2,
    };
    const first = await db.dataSource.transaction((manager) =>
      documents.moveBatch(manager, { ...batch, afterKey: (BigInt(keys[0]!) - 1n).toString(), upToKey: keys[3]! }),
    );
    expect(first).toEqual({ moved: 2, lastKey: keys[1] });
    const rest = await db.dataSource.transaction((manager) =>
      documents.moveBatch(manager, { ...batch, afterKey: keys[1]!, upToKey: keys[3]!, limit: 10 }),
    );
    expect(rest).toEqual({ moved: 2, lastKey: keys[3] });
    expect(await idsIn(target)).toEqual(['s-1', 's-2', 's-3', 's-4']);
    expect(await idsIn(source)).toEqual(['s-5']);
    expect(await idsIn(bystander)).toEqual(['b-1', 'b-2']);
    expect(await documents.countInOrganization(target)).toEqual({ documents: 4, records: 4 });
  });

  it('moves only the documents a listed-documents migration holds', async () => {
    const source = await db.organization(acme, 'held-src');
    const target = await db.organization(acme, 'held-dst');
    const keys = await db.documents(source, 'h', 4);
    const migrations = new MigrationRepository(db.dataSource);
    const migrationId = randomUUID();
    const held = [keys[0]!, keys[2]!];
    await db.dataSource.transaction(async (manager) => {
      const seq = await migrations.insert(manager, {
        id: migrationId,
        workspaceId: acme,
        sourceKey: source,
        targetKey: target,
        scope: 'documents',
        totalDocuments: 2,
      });
      await migrations.holdDocuments(manager, migrationId, seq, source, target, held);
    });
    const moved = await db.dataSource.transaction((manager) =>
      documents.moveBatch(manager, {
        migrationId,
        scope: 'documents',
        sourceKey: source,
        targetKey: target,
        afterKey: '0',
        upToKey: keys[3]!,
        limit: 10,
      }),
    );
    expect(moved).toEqual({ moved: 2, lastKey: keys[2] });
    expect(await idsIn(target)).toEqual(['h-1', 'h-3']);
    expect(await idsIn(source)).toEqual(['h-2', 'h-4']);
  });
});
