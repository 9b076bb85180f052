import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource, EntityClass, MigrationClass, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase } from '@acme/platform-test-infra';
import { COMMUNITY_MIGRATIONS } from '../index';
import { COMMUNITY_SCHEMA, communityTable } from '@acme/community-schema';

export interface CommunityTestDatabase {
  dataSource: DataSource;
  /** A project row (a tenant); returns its id. */
  project(): Promise<string>;
  /** A user of the project; returns its id. */
  user(projectId: string, email?: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh database with the community migrations (and `more` after them), for repository int-specs. */
export async function startCommunityDatabase(
  label: string,
  entities: EntityClass[],
  more: MigrationClass[] = [],
): Promise<CommunityTestDatabase> {
  const database = await createTestDatabase(label);
  const dataSource = await createDataSource({
    url: database.url,
    schema: COMMUNITY_SCHEMA,
    migrations: [...COMMUNITY_MIGRATIONS, ...more],
    entities,
  }).initialize();
  await runMigrationsUnderLock(dataSource, COMMUNITY_SCHEMA);
  return {
    dataSource,
    async project() {
      const id = randomUUID();
      await dataSource.query(
        `INSERT INTO ${communityTable('projects')} (id, name, service_key_digest, master_key_digest) VALUES ($1, 'p', $2, $3)`,
        [id, `s-${id}`, `m-${id}`],
      );
      return id;
    },
    async user(projectId, email = `${randomUUID()}@example.com`) {
      const rows = (await dataSource.query(
        `INSERT INTO ${communityTable('users')} (project_id, email, password_hash) VALUES ($1, $2, 'h') RETURNING id`,
        [projectId, email],
      )) as { id: string }[];
      return rows[0].id;
    },
    async close() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
