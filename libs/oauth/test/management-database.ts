import { DataSource } from 'typeorm';
import { createDataSource } from '@acme/platform-persistence';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { Client, ClientGrant, SigningKey } from '../src/lib/oauth.entities';
import { OAUTH_MIGRATIONS } from '../src/migrations';

export interface ManagementDatabase {
  dataSource: DataSource;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database with the OAuth migrations run, for one repository's int-spec. */
export async function openManagementDatabase(name: string): Promise<ManagementDatabase> {
  const database: TestDatabase = await createTestDatabase(name);
  const dataSource = createDataSource({
    url: database.url,
    schema: MANAGEMENT_SCHEMA,
    migrations: OAUTH_MIGRATIONS,
    entities: [Client, ClientGrant, SigningKey],
  });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${MANAGEMENT_SCHEMA}`);
  await dataSource.runMigrations();
  return {
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    },
  };
}
