import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase, TestDatabase } from '@acme/platform-testing';
import { MigrationSchema1763760000000 } from '../migrations';
import { MIGRATION_STATES, MigrationState, nextState } from './migration-state';
import { TABLES } from './repositories/migration-tables';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';

/** The database itself refuses illegal transitions and inconsistent rows, whoever writes them. */
describe('migration schema constraints', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let workspaceId: string;

  beforeAll(async () => {
    database = await createTestDatabase('document-migration-schema');
    dataSource = await createDataSource({
      url: database.url,
      schema: MIGRATION_SCHEMA,
      migrations: [MigrationSchema1763760000000],
    }).initialize();
    await runMigrationsUnderLock(dataSource, MIGRATION_SCHEMA);
    workspaceId = randomUUID();
    await dataSource.query(
      `INSERT INTO ${TABLES.workspaces} ("id", "name", "api_key_digest", "auth_token_digest") VALUES ($1, 'w', 'a', 't')`,
      [workspaceId],
    );
    await dataSource.query(`INSERT INTO ${TABLES.organizations} ("workspace_id", "id") VALUES ($1, 'a'), ($1, 'b')`, [
      workspaceId,
    ]);
  }, 60000);
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const insertMigration = async (status: MigrationState = 'pending'): Promise<string> => {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO ${TABLES.migrations} ("id", "workspace_id", "source_organization_key", "target_organization_key", "scope", "total_documents", "status", "failure_reason")
       SELECT $1, $2, (SELECT "key" FROM ${TABLES.organizations} WHERE "id" = 'a'), (SELECT "key" FROM ${TABLES.organizations} WHERE "id" = 'b'), 'organization', 0, $3, $4`,
      [id, workspaceId, status, status === 'failed' ? 'why' : null],
    );
    return id;
  };

  const tryMove = async (id: string, to: MigrationState) => {
    try {
      await dataSource.query(`UPDATE ${TABLES.migrations} SET "status" = $2, "failure_reason" = $3 WHERE "id" = $1`, [
        id,
        to,
        to === 'failed' ? 'why' : null,
      ]);
      return true;
    } catch {
      return false;
    }
  };

  it.each(
    MIGRATION_STATES.flatMap((from) => MIGRATION_STATES.filter((to) => to !== from).map((to) => [from, to] as const)),
  )('allows %s -> %s only when the state machine does', async (from, to) => {
    const id = await insertMigration(from);
    const legal = (['start', 'complete', 'fail', 'cancel'] as const).some((event) => nextState(from, event) === to);
    expect(await tryMove(id, to)).toBe(legal);
  });

  it('requires a reason exactly when failed, and distinct organizations', async () => {
    const id = await insertMigration('pending');
    await expect(
      dataSource.query(`UPDATE ${TABLES.migrations} SET "status" = 'failed' WHERE "id" = $1`, [id]),
    ).rejects.toThrow(/failure_reason/);
    await expect(
      dataSource.query(
        `INSERT INTO ${TABLES.migrations} ("id", "workspace_id", "source_organization_key", "target_organization_key", "scope", "total_documents")
         SELECT $1, $2, "key", "key", 'organization', 0 FROM ${TABLES.organizations} WHERE "id" = 'a'`,
        [randomUUID(), workspaceId],
      ),
    ).rejects.toThrow(/distinct_orgs/);
  });
});
