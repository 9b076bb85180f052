import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { COMMUNITY_MIGRATIONS, COMMUNITY_SCHEMA, communityTable } from '@acme/community';
import { createDataSource, EntityClass, MigrationClass, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase } from '@acme/platform-test-infra';

export interface CommunityTestDatabase {
  dataSource: DataSource;
  /** A project row (a tenant); returns its id. */
  project(): Promise<string>;
  /** A user of the project; returns its id. */
  user(projectId: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh database with the community migrations and this lib's, for repository int-specs. */
export async function startCommunityDatabase(label: string, entities: EntityClass[], migrations: MigrationClass[]): Promise<CommunityTestDatabase> {
  const database = await createTestDatabase(label);
  const dataSource = await createDataSource({ url: database.url, schema: COMMUNITY_SCHEMA, migrations: [...COMMUNITY_MIGRATIONS, ...migrations], entities }).initialize();
  await runMigrationsUnderLock(dataSource, COMMUNITY_SCHEMA);
  return {
    dataSource,
    async project() {
      const id = randomUUID();
      await dataSource.query(`INSERT INTO ${communityTable('projects')} (id, name, service_key_digest, master_key_digest) VALUES ($1, 'p', $2, $3)`, [id, `s-${id}`, `m-${id}`]);
      return id;
    },
    async user(projectId) {
      const rows = (await dataSource.query(`INSERT INTO ${communityTable('users')} (project_id, email, password_hash) VALUES ($1, $2, 'h') RETURNING id`, [projectId, `${randomUUID()}@example.com`])) as { id: string }[];
      return rows[0].id;
    },
    async close() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/** A valid event row for `EventRepository.insert` (public, online, starting in a day), with `overrides`. */
export function newEvent(projectId: string, userId: string, overrides: Partial<Record<string, unknown>> = {}) {
  return {
    id: randomUUID(),
    projectId,
    userId,
    title: 'Meetup',
    description: null,
    startTime: new Date(Date.now() + 86_400_000),
    endTime: null,
    timezone: null,
    type: 'online' as const,
    url: 'https://meet.example',
    venueName: null,
    address: null,
    location: null,
    spaceId: null,
    visibility: 'public' as const,
    allowMaybe: true,
    guestListVisible: true,
    capacity: null,
    hostIds: [userId],
    metadata: {},
    ...overrides,
  };
}
