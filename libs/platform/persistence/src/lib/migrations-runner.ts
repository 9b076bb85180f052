import { DataSource } from 'typeorm';
import { createDataSource, PersistenceOptions } from './data-source';

/**
 * Applies pending migrations of one schema while holding a Postgres advisory lock, so instances that start
 * together run them once. The schema is created first because the migrations table lives inside it.
 */
export async function runMigrationsUnderLock(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtext($1))`, [`migrations:${schema}`]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`migrations:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * The release-job command (`node main.js migrate`): connects, applies the schema's pending migrations under the same
 * advisory lock as a starting instance, disconnects. Nothing else of the service starts.
 */
export async function applyMigrationsOnly(options: PersistenceOptions): Promise<string[]> {
  // Two connections: the advisory lock holds one while TypeORM runs the migrations on another.
  const dataSource = await createDataSource({ ...options, poolSize: 2 }).initialize();
  try {
    return await runMigrationsUnderLock(dataSource, options.schema);
  } finally {
    await dataSource.destroy();
  }
}
