// `npm start [-- <service…>]`: one command after a clean clone. Installs if needed, builds the services, finds or
// starts PostgreSQL and Redis (its own database, acme_dev), starts the services, waits for /health and prints the
// summary last; Ctrl-C stops all. `npm run dev` (--watch) also rebuilds and restarts a service when its code changes.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allocatorEnv } from './allocator.cjs';
import { watchSources } from './dev-watch.mjs';
import { ensureDatabase, ensureDependencies, ensurePostgres, ensureRedis, ROOT } from './infra.mjs';
import { ensureProjectNode } from './project-node.mjs';
import { selectServices } from './services.mjs';

/** V8 flags every service runs with (see the file's "why"). */
const SERVICE_NODE_FLAGS = JSON.parse(readFileSync(join(ROOT, 'tools/launcher/node-flags.json'), 'utf8')).service;
const DEV_DATABASE = process.env.DEV_DATABASE ?? 'acme_dev';
const WATCH = process.argv.includes('--watch');
const PRETTY = process.env.LOG_PRETTY ? process.env.LOG_PRETTY === 'true' : Boolean(process.stdout.isTTY);
const say = (line) => process.stderr.write(`[start] ${line}\n`);

/** Dev credentials are generated once and kept in .data so restarts keep working tokens. */
function devCredentials() {
  const file = join(ROOT, '.data', 'dev-credentials.json');
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const secret = (n) => randomBytes(n).toString('base64url');
  const creds = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8'))
    : {
        ADMIN_TOKEN: secret(24),
        MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'bootstrap-management-client',
        MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: secret(32),
      };
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  const names = ['ADMIN_TOKEN', 'MANAGEMENT_BOOTSTRAP_CLIENT_ID', 'MANAGEMENT_BOOTSTRAP_CLIENT_SECRET'];
  return { ...creds, ...Object.fromEntries(names.filter((n) => process.env[n]).map((n) => [n, process.env[n]])) };
}

async function waitHealthy(url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** Builds the chosen services (Nx's cache makes an unchanged one instant); resolves with the exit code. */
function build(services) {
  const projects = `--projects=${services.map((s) => s.name).join(',')}`;
  const args = ['nx', 'run-many', '-t', 'build', projects, '--parallel=2', '--output-style=static'];
  const child = spawn(join(ROOT, 'node_modules/.bin/nx'), args.slice(1), { cwd: ROOT, stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

const bundleHash = (service) => {
  const file = join(ROOT, 'dist/apps', service.name, 'app.js');
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : '';
};

/** PostgreSQL as found; a server we found or started gets its own database, never `postgres`. */
async function resolvePostgres() {
  const postgres = await ensurePostgres();
  if (postgres.source === 'DATABASE_URL') return postgres;
  const url = await ensureDatabase(postgres.url, DEV_DATABASE);
  return { ...postgres, url, source: `${postgres.source}, database ${DEV_DATABASE}` };
}

async function prettyOutput(service) {
  const { default: pinoPretty } = await import('pino-pretty');
  return pinoPretty({ colorize: true, destination: 1, ignore: 'pid,hostname', messageFormat: `${service.name} {msg}` });
}

async function spawnService(service, env) {
  const main = join(ROOT, 'dist/apps', service.name, 'main.js');
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, main], {
    env: { ...env, ...service.devEnv, PORT: String(service.port), PUBLIC_URL: service.publicUrl },
    stdio: ['ignore', PRETTY ? 'pipe' : 'inherit', 'inherit'],
  });
  if (PRETTY) child.stdout.pipe(await prettyOutput(service));
  return child;
}

function stopChild(child, name) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // A service that has not drained within 15 s is killed, so Ctrl-C always ends everything.
    const deadline = setTimeout(() => {
      say(`${name} did not stop in 15 s: killing it`);
      child.kill('SIGKILL');
    }, 15000);
    child.once('exit', () => {
      clearTimeout(deadline);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function summary(services, healthy, postgres, redis, creds) {
  const lines = services.map(
    (s, i) =>
      `  ${s.name.padEnd(17)} ${s.url.padEnd(24)} docs ${s.url}/docs   ${healthy[i] ? 'healthy' : 'NOT HEALTHY'}`,
  );
  return [
    '',
    'Services:',
    ...lines,
    '',
    `PostgreSQL: ${postgres.source}`,
    `Redis:      ${redis.source}`,
    '',
    'Credentials (kept in .data/dev-credentials.json):',
    `  ADMIN_TOKEN=${creds.ADMIN_TOKEN}   (operator API: Authorization: Bearer <ADMIN_TOKEN>)`,
    `  management client: ${creds.MANAGEMENT_BOOTSTRAP_CLIENT_ID} / ${creds.MANAGEMENT_BOOTSTRAP_CLIENT_SECRET}`,
    '',
    'A first tour, one curl block per service: docs/quick-tour.md',
    WATCH
      ? 'Watching apps/ and libs/: a change rebuilds and restarts the services it reaches. Ctrl-C stops everything.'
      : 'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

async function main() {
  const services = selectServices(process.argv.slice(2));
  ensureDependencies();
  await ensureProjectNode();
  if ((await build(services)) !== 0) throw new Error('build failed');
  const postgres = await resolvePostgres();
  const redis = await ensureRedis();
  const creds = devCredentials();
  const env = {
    ...allocatorEnv(),
    ...process.env,
    ...creds,
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    STORAGE_DIR: process.env.STORAGE_DIR ?? join(ROOT, '.data', 'community-files'),
    // No load balancer in front of a local run: Ctrl-C need not wait out the drain window.
    SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0',
  };
  const children = new Map();
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    say('stopping services...');
    await Promise.all([...children].map(([name, child]) => stopChild(child, name)));
    await redis.stop();
    await postgres.stop();
    process.exit(code);
  };
  const launch = async (service) => {
    const child = await spawnService(service, env);
    children.set(service.name, child);
    child.once('exit', (code) => {
      if (stopping || children.get(service.name) !== child) return;
      say(`${service.name} exited with ${code}`);
      // In dev mode a crash waits for the next change; otherwise one service down stops the set.
      if (!WATCH) void stop(1);
    });
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  for (const service of services) await launch(service);
  const healthy = await Promise.all(services.map((s) => waitHealthy(s.url)));
  process.stdout.write(summary(services, healthy, postgres, redis, creds));
  if (healthy.some((h) => !h) && !WATCH) return stop(1);
  if (WATCH)
    watchSources(async () => {
      const before = new Map(services.map((s) => [s.name, bundleHash(s)]));
      if ((await build(services)) !== 0) return say('build failed: the running services are unchanged');
      for (const service of services.filter((s) => bundleHash(s) !== before.get(s.name))) {
        await stopChild(children.get(service.name), service.name);
        await launch(service);
        say(`${service.name} restarted: ${(await waitHealthy(service.url)) ? 'healthy' : 'NOT HEALTHY'}`);
      }
    });
}

main().catch((error) => {
  process.stderr.write(`npm start: ${error.message}\n`);
  process.exit(1);
});
