// What the start-up benches share: the database server, the services' V8 flags, an admin statement, and the
// environment a benched service starts with (a fresh database, a Redis prefix of its own, the bootstrap client).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { allocatorEnv } from '../../launcher/allocator.cjs';

export const ROOT = new URL('../../..', import.meta.url).pathname;
export const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The flags npm start and the image give every service (tools/launcher/node-flags.json). */
export const FLAGS = JSON.parse(readFileSync(join(ROOT, 'tools/launcher/node-flags.json'), 'utf8')).service;

export async function admin(sql) {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A service's environment for one benched start into database `db` on `port`. */
export function benchServiceEnv(db, port) {
  const url = new URL(SERVER);
  url.pathname = `/${db}`;
  return {
    ...allocatorEnv(),
    ...process.env,
    PORT: String(port),
    DATABASE_URL: url.toString(),
    REDIS_PREFIX: `bench:${db}`,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'bench',
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: 'bench-secret-0123456789abcdef0123456789',
  };
}

/** Stops a benched service (SIGTERM, waiting for its exit) and drops its database. */
export async function stopAndDrop(child, db) {
  await new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  await admin(`DROP DATABASE ${db} WITH (FORCE)`);
}
