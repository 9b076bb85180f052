import { spawnSync } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { createTestRedisPrefix, freePort, testRedisUrl } from '@acme/platform-test-infra';

const root = join(__dirname, '../../..');

interface Line {
  level: number;
  msg: string;
  check?: string;
  retryInMs?: number;
}

/** Starts one service from source with `env`; every line it writes must be JSON. */
function start(app: string, env: Record<string, string>) {
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(root, 'apps', app, 'src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env['PATH'] ?? '',
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: createTestRedisPrefix(`startup-${app}`),
      LOG_LEVEL: 'info',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const text = `${result.stdout}${result.stderr}`.trim();
  const lines = text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as Line);
  return { status: result.status, lines, fatal: lines.filter((line) => line.level >= 50), ms: Date.now() - startedAt };
}

/** A service that cannot start says why in one JSON line, naming the setting to check; no instant retry storm. */
describe('start-up failures', () => {
  it('a database that does not exist: one fatal line naming DATABASE_URL, no retry', () => {
    const result = start('management-api', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/no_such_database_h7',
      PORT: '0',
    });
    expect(result.status).toBe(1);
    expect(result.fatal).toHaveLength(1);
    expect(result.fatal[0]).toMatchObject({ check: 'DATABASE_URL' });
    expect(result.fatal[0].msg).toContain('database "no_such_database_h7" does not exist');
    expect(result.lines.filter((line) => line.level === 40)).toEqual([]);
  });

  it('a login PostgreSQL refuses: one fatal line naming DATABASE_URL, no retry', () => {
    const result = start('rum-ingestion', { DATABASE_URL: 'postgres://no_such_role_h7@127.0.0.1:5432/postgres' });
    expect(result.status).toBe(1);
    expect(result.fatal).toHaveLength(1);
    expect(result.fatal[0]).toMatchObject({ check: 'DATABASE_URL' });
    expect(result.fatal[0].msg).toContain('refused the login');
    expect(result.lines.filter((line) => line.level === 40)).toEqual([]);
  });

  it('an unreachable PostgreSQL: retried with growing waits, then one fatal line', async () => {
    const closed = await freePort();
    const result = start('community-api', {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/postgres`,
      DATABASE_CONNECT_RETRY_MS: '2000',
    });
    expect(result.status).toBe(1);
    expect(result.fatal).toHaveLength(1);
    expect(result.fatal[0]).toMatchObject({ check: 'DATABASE_URL' });
    expect(result.fatal[0].msg).toContain(`127.0.0.1:${closed}/postgres could not be reached (ECONNREFUSED)`);
    const waits = result.lines.filter((line) => line.level === 40).map((line) => line.retryInMs);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('a port already in use: one fatal line naming PORT', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    try {
      const result = start('migration-worker', { PORT: String(port) });
      expect(result.status).toBe(1);
      expect(result.fatal).toEqual([
        expect.objectContaining({ check: 'PORT', msg: expect.stringContaining(`port ${port} is already in use`) }),
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
