// `npm test`: every Jest project of the workspace against real PostgreSQL and Redis, found or started exactly as
// `npm start` does; stops whatever it started. Extra arguments go to Jest.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies, ensurePostgres, ensureRedis, ROOT } from './infra.mjs';

async function main() {
  ensureDependencies();
  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  process.stderr.write(`[test] PostgreSQL: ${postgres.source}; Redis: ${redis.source}\n`);
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const args = [join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', `--maxWorkers=${process.env.JEST_WORKERS ?? 2}`,
    '--json', `--outputFile=${join(ROOT, '.data/jest-results.json')}`, ...process.argv.slice(2)];
  const env = { ...process.env, DATABASE_URL: postgres.url, REDIS_URL: redis.url, NODE_ENV: 'test' };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise((resolve) => child.once('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
  await redis.stop();
  await postgres.stop();
  process.exit(code);
}

main().catch((error) => { process.stderr.write(`npm test: ${error.message}\n`); process.exit(1); });
