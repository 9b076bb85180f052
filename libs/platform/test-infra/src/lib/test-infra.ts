import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server `npm test` found or started (it exports DATABASE_URL and REDIS_URL before Jest runs). */
export const testDatabaseServerUrl = () => process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = () => process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const uniqueSuffix = () => `${process.pid.toString(36)}_${randomBytes(4).toString('hex')}`;

/** A fresh database per test file, so files run in parallel without seeing each other's rows. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${uniqueSuffix()}`;
  const adminUrl = testDatabaseServerUrl();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis key prefix (queues included) that no other test file uses. */
export function createTestRedisPrefix(label = 'test'): string {
  return `t:${label}:${uniqueSuffix()}`;
}
