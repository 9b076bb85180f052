import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource, ReadReplicas, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase } from '@acme/platform-test-infra';
import { MIGRATION_SCHEMA_MIGRATIONS } from '../src';
import { DocumentRepository, ImportedDocument } from '../src/lib/repositories/document.repository';
import { MIGRATION_SCHEMA } from '@acme/migration-schema';
import { OrganizationRepository } from '../src/lib/repositories/organization.repository';
import { WorkspaceRepository } from '../src/lib/repositories/workspace.repository';

/** A fresh database with the lib's schema migrations applied, for one repository int-spec. */
export interface RepositoryDatabase {
  dataSource: DataSource;
  replicas: ReadReplicas;
  /** A workspace (tenant) with throwaway credential digests. */
  workspace(): Promise<string>;
  /** An organization of the workspace; answers its internal key. */
  organization(workspaceId: string, organizationId: string): Promise<string>;
  /** Documents `<prefix>-1..n` with one record each; answers their keys in order. */
  documents(organizationKey: string, prefix: string, count: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function openRepositoryDatabase(label: string): Promise<RepositoryDatabase> {
  const database = await createTestDatabase(label);
  const dataSource = await createDataSource({
    url: database.url,
    schema: MIGRATION_SCHEMA,
    migrations: MIGRATION_SCHEMA_MIGRATIONS,
  }).initialize();
  await runMigrationsUnderLock(dataSource, MIGRATION_SCHEMA);
  const replicas = new ReadReplicas(dataSource, dataSource.options, { urls: [], maxLagMs: 1000 });
  const workspaces = new WorkspaceRepository(dataSource);
  const organizations = new OrganizationRepository(dataSource);
  const documents = new DocumentRepository(replicas);
  return {
    dataSource,
    replicas,
    async workspace() {
      const id = randomUUID();
      await workspaces.insert({ id, name: `w-${id}`, apiKeyDigest: `key-${id}`, authTokenDigest: `token-${id}` });
      return id;
    },
    async organization(workspaceId, organizationId) {
      await organizations.insert(workspaceId, organizationId);
      const key = await organizations.findKey(workspaceId, organizationId);
      if (key === undefined) throw new Error('organization not created');
      return key;
    },
    async documents(organizationKey, prefix, count) {
      const batch: ImportedDocument[] = Array.from({ length: count }, (_, i) => ({
        id: `${prefix}-${i + 1}`,
        title: `t${i + 1}`,
        records: [{ id: 'r', kind: 'note', body: { n: i + 1 } }],
      }));
      await dataSource.transaction((manager) => documents.insertWithRecords(manager, organizationKey, batch));
      const ids = batch.map((d) => d.id);
      return dataSource.transaction((manager) => documents.lockKeysByIds(manager, organizationKey, ids));
    },
    async close() {
      await replicas.onApplicationShutdown();
      await dataSource.destroy();
      await database.drop();
    },
  };
}
