import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource, runMigrationsUnderLock } from '@acme/platform-persistence';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { RUM_MIGRATIONS } from '../src/migrations';
import { AccountsRepository } from '../src/lib/repositories/accounts.repository';
import { ApplicationsRepository } from '../src/lib/repositories/applications.repository';
import { RUM_SCHEMA } from '@acme/rum-schema';

/** A fresh database with the rum schema migrated (or only its first migrations), for repository int-specs. */
export class RumTestDatabase {
  private constructor(
    private readonly database: TestDatabase,
    public db: DataSource,
  ) {}

  static async start(
    label: string,
    migrations: readonly (typeof RUM_MIGRATIONS)[number][] = RUM_MIGRATIONS,
  ): Promise<RumTestDatabase> {
    const database = await createTestDatabase(label);
    const db = await createDataSource({
      url: database.url,
      schema: RUM_SCHEMA,
      migrations: [...migrations],
    }).initialize();
    await runMigrationsUnderLock(db, RUM_SCHEMA);
    return new RumTestDatabase(database, db);
  }

  /** Connects anew knowing `migrations` (none run yet): a migration's own test runs it. */
  async reconnect(migrations: readonly (typeof RUM_MIGRATIONS)[number][]): Promise<DataSource> {
    await this.db.destroy();
    this.db = await createDataSource({
      url: this.database.url,
      schema: RUM_SCHEMA,
      migrations: [...migrations],
    }).initialize();
    return this.db;
  }

  async stop(): Promise<void> {
    await this.db.destroy();
    await this.database.drop();
  }

  /** A tenant: an account owning one application. */
  async tenant(name: string): Promise<{ accountId: number; applicationId: string }> {
    const accountId = await new AccountsRepository(this.db).insert(name);
    const applicationId = randomBytes(12).toString('hex');
    await new ApplicationsRepository(this.db).insert(applicationId, `${name} app`, accountId);
    return { accountId, applicationId };
  }
}
