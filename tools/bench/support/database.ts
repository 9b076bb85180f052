/**
 * A throw-away Postgres database (on DATABASE_URL's server) and Redis key prefix per benchmark run.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';

export const SERVER_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface BenchDatabase {
  name: string;
  /** Connection string of the new database. */
  url: string;
  /** Drops it (forcing other sessions off); safe to call once in `finally`. */
  drop(): Promise<void>;
}

/** Creates `<prefix>_<random hex>` on the server of DATABASE_URL. */
export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A fresh Redis key prefix, `<area>:<random hex>`. */
export const benchRedisPrefix = (area: string) => `${area}:${randomBytes(4).toString('hex')}`;

/** Deletes every key under `prefix:`. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
