// `npm start`: one command after a clean clone. Installs if needed, builds the four services, finds or starts
// PostgreSQL and Redis, starts every service, waits for /health, prints URLs and credentials; Ctrl-C stops all.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allocatorEnv } from './allocator.cjs';
import { ensureDependencies, ensurePostgres, ensureRedis, ROOT } from './infra.mjs';
import { ensureProjectNode } from './project-node.mjs';

/** V8 flags every service runs with (see the file's "why"). */
const SERVICE_NODE_FLAGS = JSON.parse(readFileSync(join(ROOT, 'tools/launcher/node-flags.json'), 'utf8')).service;

/** Every service of the workspace, in one list (`tools/services.json`, extended by tools/scripts/new-service.mjs). */
export const SERVICES = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8'));

/** Dev credentials are generated once and kept in .data so restarts keep working tokens. */
function devCredentials() {
  const file = join(ROOT, '.data', 'dev-credentials.json');
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secret = (n) => randomBytes(n).toString('base64url');
  const creds = {
    ADMIN_TOKEN: secret(24),
    MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'bootstrap-management-client',
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: secret(32),
  };
  writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  return creds;
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

async function main() {
  ensureDependencies();
  await ensureProjectNode();
  const build = spawnSync('npx', ['--yes', 'nx', 'run-many', '-t', 'build', '--parallel=2', '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('build failed');
  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  const creds = {
    ...devCredentials(),
    ...pick(process.env, ['ADMIN_TOKEN', 'MANAGEMENT_BOOTSTRAP_CLIENT_ID', 'MANAGEMENT_BOOTSTRAP_CLIENT_SECRET']),
  };
  const children = SERVICES.map((service) => {
    const port = Number(process.env[`${service.name.toUpperCase().replace(/-/g, '_')}_PORT`] ?? service.port);
    const url = `http://127.0.0.1:${port}`;
    const env = {
      ...allocatorEnv(),
      ...process.env,
      ...creds,
      PORT: String(port),
      PUBLIC_URL: process.env.PUBLIC_URL_OVERRIDE ?? url,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: process.env.STORAGE_DIR ?? join(ROOT, '.data', 'community-files'),
      // No load balancer in front of a local run: Ctrl-C need not wait out the drain window.
      SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0',
    };
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(ROOT, 'dist/apps', service.name, 'main.js')], {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    return { ...service, url, child };
  });
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('\nstopping services...\n');
    await Promise.all(
      children.map(
        ({ child, name }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            // A service that has not drained within 15 s is killed, so Ctrl-C always ends everything.
            const deadline = setTimeout(() => {
              process.stderr.write(`${name} did not stop in 15 s: killing it\n`);
              child.kill('SIGKILL');
            }, 15000);
            child.once('exit', () => {
              clearTimeout(deadline);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await redis.stop();
    await postgres.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  for (const { child, name } of children)
    child.once('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`${name} exited with ${code}\n`);
        void stop(1);
      }
    });

  const healthy = await Promise.all(children.map((c) => waitHealthy(c.url)));
  const lines = children.map(
    (c, i) =>
      `  ${c.name.padEnd(17)} ${c.url.padEnd(24)} docs ${c.url}/docs   ${healthy[i] ? 'healthy' : 'NOT HEALTHY'}`,
  );
  process.stdout.write(
    [
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
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  if (healthy.some((h) => !h)) await stop(1);
}

function pick(source, names) {
  return Object.fromEntries(names.filter((n) => source[n]).map((n) => [n, source[n]]));
}

main().catch((error) => {
  process.stderr.write(`npm start: ${error.message}\n`);
  process.exit(1);
});
