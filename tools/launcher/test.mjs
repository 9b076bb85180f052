// `npm test`: every Jest project of the workspace against real PostgreSQL and Redis, found or started exactly as
// `npm start` does; stops whatever it started. Extra arguments go to Jest.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDependencies, ensurePostgres, ensureRedis, ROOT } from './infra.mjs';
import { ensureProjectNode } from './project-node.mjs';
import redisCluster from '../../libs/platform/test-infra/src/lib/redis-cluster-launcher.js';
import replicaLauncher from '../../libs/platform/test-infra/src/lib/postgres-replica-launcher.js';
import {
  CLUSTER_ONLY_TESTS,
  CLUSTER_TESTS,
  REPLICA_TESTS,
  RESULTS_REPORTERS,
  SERIAL_TESTS as SERIAL,
} from './test-kinds.mjs';

const WORKERS = process.env.JEST_WORKERS ?? 2;

function jest(env, resultsFile, args) {
  const argv = [join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', ...RESULTS_REPORTERS, ...args];
  const resultsEnv = { ...env, JEST_RESULTS_FILE: join(ROOT, '.data', resultsFile) };
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: resultsEnv, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) =>
    child.once('exit', (c, s) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(c ?? (s ? 1 : 0));
    }),
  );
}

/** The Redis-using files again, alone, against a six-node Redis Cluster started here and stopped after. */
async function clusterPass(env) {
  const started = await redisCluster.startRedisCluster({ dir: join(ROOT, '.data', 'redis-cluster') });
  process.stderr.write(`[test] Redis Cluster: ${started.nodes} (masters ${started.masterPorts().join(', ')})\n`);
  try {
    return await jest({ ...env, REDIS_CLUSTER_NODES: started.nodes }, 'jest-results-cluster.json', [
      '--runInBand',
      '--forceExit',
      '--testPathPatterns',
      ...CLUSTER_TESTS,
    ]);
  } finally {
    await started.stop();
  }
}

/** The read-replica files against a private primary and its streaming replica; said and left out without the binaries. */
async function replicaPass(env) {
  const binaries = replicaLauncher.findPostgresBinaries();
  if (!binaries.bin) {
    process.stderr.write(`[test] replica suite not run: ${binaries.reason}; the primary-only suite ran\n`);
    return 0;
  }
  const [primaryPort, replicaPort] = [await redisCluster.freePort(), await redisCluster.freePort()];
  const pair = replicaLauncher.startPrimaryWithReplica({
    dir: join(tmpdir(), `acme-replica-${process.pid}`),
    primaryPort,
    replicaPort,
  });
  process.stderr.write(
    `[test] PostgreSQL primary on ${primaryPort} with a streaming replica on ${replicaPort} (${binaries.bin})\n`,
  );
  try {
    return await jest({ ...env, ...pair.env }, 'jest-results-replica.json', [
      '--runInBand',
      '--forceExit',
      '--testPathPatterns',
      ...REPLICA_TESTS,
    ]);
  } finally {
    pair.stop();
  }
}

async function main() {
  ensureDependencies();
  await ensureProjectNode();
  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  process.stderr.write(`[test] PostgreSQL: ${postgres.source}; Redis: ${redis.source}\n`);
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const env = { ...process.env, DATABASE_URL: postgres.url, REDIS_URL: redis.url, NODE_ENV: 'test' };
  const extra = process.argv.slice(2);
  let code;
  if (extra.length > 0) {
    code = await jest(env, 'jest-results.json', [`--maxWorkers=${WORKERS}`, ...extra]);
  } else {
    // Tests that measure rates or kill processes run alone afterwards, so parallel files cannot starve them.
    const parallel = await jest(env, 'jest-results.json', [
      `--maxWorkers=${WORKERS}`,
      '--testPathIgnorePatterns',
      ...SERIAL,
      ...CLUSTER_ONLY_TESTS,
      ...REPLICA_TESTS,
      '/node_modules/',
    ]);
    // In-band files run in this process: a leaked handle must not hold CI forever.
    const serial = await jest(env, 'jest-results-serial.json', [
      '--runInBand',
      '--forceExit',
      '--testPathPatterns',
      ...SERIAL,
    ]);
    const cluster = await clusterPass(env);
    const replica = await replicaPass(env);
    code = parallel || serial || cluster || replica;
  }
  await redis.stop();
  await postgres.stop();
  process.exit(code);
}

main().catch((error) => {
  process.stderr.write(`npm test: ${error.message}\n`);
  process.exit(1);
});
