import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createTestDatabase, TestDatabase, testRedisUrl } from '@acme/platform-test-infra';
import { ensureBuilt, freePort, ROOT, startService, waitHealthy } from './support/built-service';

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
  }, 300000);
  afterAll(async () => {
    await database?.drop();
    if (storage) rmSync(storage, { recursive: true, force: true });
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

describe('a service deploys alone from its generated package.json', () => {
  const app = 'rum-ingestion';
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    ensureBuilt([app]);
    database = await createTestDatabase('deployable');
    dir = mkdtempSync(join(tmpdir(), `deploy-${app}-`));
  }, 300000);
  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists only runtime dependencies, pinned, with a lockfile', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'dist/apps', app, 'package.json'), 'utf8'));
    const deps = Object.keys(pkg.dependencies);
    expect(deps).toEqual(expect.arrayContaining(['@nestjs/core', 'pg', 'ioredis', 'typeorm']));
    for (const other of [
      'sharp',
      'bullmq',
      '@aws-sdk/client-s3',
      '@bull-board/api',
      'nodemailer',
      'web-push',
      'jest',
      'nx',
      'typescript',
    ])
      expect(deps).not.toContain(other);
    for (const version of Object.values(pkg.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const lock = JSON.parse(readFileSync(join(ROOT, 'dist/apps', app, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
  });

  it('installs into an empty folder with npm ci and answers /health 200', async () => {
    cpSync(join(ROOT, 'dist/apps', app), dir, { recursive: true });
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 240000,
    });
    const port = await freePort();
    const running = startService(
      join(dir, 'main.js'),
      {
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: `deploy-${randomBytes(3).toString('hex')}`,
      },
      dir,
    );
    try {
      await waitHealthy(running, port);
    } finally {
      await running.stop();
    }
  }, 300000);
});
