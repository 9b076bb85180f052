import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const apps: string[] = JSON.parse(readFileSync(join(root, 'tools/services.json'), 'utf8')).map(
  (s: { name: string }) => s.name,
);

function start(app: string, env: Record<string, string>) {
  return spawnSync(process.execPath, ['-r', '@swc-node/register', join(root, 'apps', app, 'src/main.ts')], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 60000,
  });
}

describe.each(apps)('%s refuses a bad environment before connecting', (app) => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://nope'],
    ['REDIS_URL', 'localhost:6379'],
    ['LOG_LEVEL', 'chatty'],
  ])('stops with a message naming %s', (name, value) => {
    const result = start(app, { [name]: value });
    expect(result.status).toBe(1);
    // One JSON line (docs/operations.md, start-up failures).
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const fatal = JSON.parse(result.stderr) as { level: number; msg: string };
    expect(fatal.level).toBe(60);
    expect(fatal.msg).toContain(`${app}: Invalid environment`);
    expect(fatal.msg).toContain(`${name}:`);
    expect(fatal.msg).toContain(JSON.stringify(value));
  });
});

describe.each([
  ['management-api', 'MANAGEMENT_CLIENT_SECRET_KEY'],
  ['community-api', 'COMMUNITY_AUTH_SECRET'],
])('%s under NODE_ENV=production', (app, secret) => {
  it(`refuses to start with the development ${secret}, naming it`, () => {
    const result = start(app, { NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect((JSON.parse(result.stderr) as { msg: string }).msg).toContain(`${secret}: must be set`);
  });
});

describe.each(apps)('%s never prints the value of a secret variable it refuses', (app) => {
  it.each([
    ['ADMIN_TOKEN', 'one-char-short', 'one-char-short'],
    ['DATABASE_URL', 'mysql://app:db-password-in-url@db/app', 'db-password-in-url'],
  ])('names %s and what is wrong, never the secret', (name, value, secret) => {
    const result = start(app, { [name]: value });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${name}:`);
    expect(result.stderr + result.stdout).not.toContain(secret);
  });
});
