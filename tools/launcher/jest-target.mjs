// One Nx test target of one project: `node tools/launcher/jest-target.mjs <projectRoot> <test|test-int|test-e2e>`.
// test-int and test-e2e find or start PostgreSQL and Redis exactly as `npm test` and `npm start` do
// (tools/launcher/infra.mjs) and stop what they started; the rate- and kill-sensitive files run alone at the end.
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePostgres, ensureRedis, ROOT } from './infra.mjs';
import { ensureProjectNode } from './project-node.mjs';
import { SERIAL_TESTS, TEST_KINDS } from './test-kinds.mjs';

const [projectRoot, target, ...extra] = process.argv.slice(2);
const kind = TEST_KINDS[target];
if (!projectRoot || !kind) {
  process.stderr.write(`usage: jest-target.mjs <projectRoot> <${Object.keys(TEST_KINDS).join('|')}> [jest args]\n`);
  process.exit(2);
}

function jest(env, args) {
  const argv = [
    join(ROOT, 'node_modules/jest/bin/jest.js'),
    // First: after an array option (--testMatch, --testPathIgnorePatterns) a path pattern would join its values.
    ...extra,
    '--config',
    join(ROOT, projectRoot, 'jest.config.cjs'),
    '--testMatch',
    kind.match,
    ...args,
  ];
  const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** Whether this target holds any of the rate- and kill-sensitive files; without them the serial pass is not run. */
function hasSerialFiles() {
  const serial = SERIAL_TESTS.map((pattern) => new RegExp(pattern));
  return globSync(kind.match, { cwd: join(ROOT, projectRoot), exclude: (name) => name === 'node_modules' }).some(
    (file) => serial.some((pattern) => pattern.test(join(projectRoot, file))),
  );
}

async function main() {
  await ensureProjectNode();
  if (!kind.services) return jest({ ...process.env, NODE_ENV: 'test' }, ['--ci']);
  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  const env = { ...process.env, DATABASE_URL: postgres.url, REDIS_URL: redis.url, NODE_ENV: 'test' };
  try {
    const parallel = await jest(env, [
      '--ci',
      '--maxWorkers=2',
      '--passWithNoTests',
      '--testPathIgnorePatterns',
      ...SERIAL_TESTS,
      '/node_modules/',
    ]);
    if (!hasSerialFiles()) return parallel;
    const serial = await jest(env, [
      '--ci',
      '--runInBand',
      '--forceExit',
      '--passWithNoTests',
      '--testPathPatterns',
      ...SERIAL_TESTS,
    ]);
    return parallel || serial;
  } finally {
    await redis.stop();
    await postgres.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`jest-target: ${error.message}\n`);
    process.exit(1);
  },
);
