import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@acme/platform-test-infra';
import { freePort, ROOT, startService } from './support/built-service';
import { call, FourServices, OUTAGE_BOOTSTRAP, SourceService, startFourServices } from './support/source-service';
import {
  makeCertificates,
  REDIS_USER,
  redisCli,
  startTlsPostgres,
  startTlsRedis,
  startTlsRedisCluster,
  TestCertificates,
  TlsPostgres,
  TlsRedis,
} from './support/tls-servers';

const ADMIN = `managed-admin-${randomBytes(12).toString('hex')}`;

/**
 * Managed PostgreSQL and Redis as they are sold (docs/deploying.md#managed-services): TLS only, verified against
 * the provider's CA, Redis with an ACL user, secrets mounted as files. Here a throwaway CA, a PostgreSQL whose
 * pg_hba refuses plain TCP, a redis-server and a three-node Redis Cluster listening on TLS ports only.
 */
describe('managed PostgreSQL and Redis: TLS, AUTH and secrets as files', () => {
  let dir: string;
  let certs: TestCertificates;
  let postgres: TlsPostgres;
  let redis: TlsRedis;
  let cluster: TlsRedis;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'managed-'));
    chmodSync(dir, 0o755); // PostgreSQL runs as `postgres` when the test runs as root
    certs = makeCertificates(join(dir, 'certs'));
    postgres = await startTlsPostgres(join(dir, 'postgres'), certs);
    [redis, cluster] = await Promise.all([
      startTlsRedis(join(dir, 'redis'), certs),
      startTlsRedisCluster(join(dir, 'cluster'), certs),
    ]);
    secrets = {};
    for (const [name, value] of Object.entries({ admin: ADMIN, redis: REDIS_USER.password })) {
      secrets[name] = join(dir, `${name}.secret`);
      writeFileSync(secrets[name], `${value}\n`, { mode: 0o600 });
    }
  }, 120_000);

  afterAll(async () => {
    postgres?.stop();
    await redis?.stop();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const database = () => ({ DATABASE_URL: postgres.url, DATABASE_TLS_CA_FILE: certs.ca });
  const issueToken = (management: SourceService) =>
    call(`${management.url}/oauth/token`, {
      body: {
        grant_type: 'client_credentials',
        client_id: OUTAGE_BOOTSTRAP.id,
        client_secret: OUTAGE_BOOTSTRAP.secret,
        audience: OUTAGE_BOOTSTRAP.audience,
      },
    });
  const stopAll = (services?: Partial<FourServices>) =>
    Promise.all(Object.values(services ?? {}).map((service) => service.stop()));

  it('every service runs on TLS PostgreSQL and a TLS Redis with an ACL user, its secrets read from files', async () => {
    const prefix = `managed-${randomBytes(3).toString('hex')}`;
    let services: FourServices | undefined;
    try {
      services = await startFourServices({
        ...database(),
        REDIS_URL: `rediss://${redis.addresses[0]}`,
        REDIS_USERNAME: REDIS_USER.name,
        REDIS_PASSWORD_FILE: secrets['redis'],
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_PREFIX: prefix,
        ADMIN_TOKEN_FILE: secrets['admin'],
        LOG_LEVEL: 'warn',
      });
      const admin = { authorization: `Bearer ${ADMIN}` };
      for (const service of Object.values(services)) {
        const health = await call(`${service.url}/health`);
        expect(health).toMatchObject({
          status: 200,
          body: { details: { postgres: { status: 'up' }, redis: { status: 'up' } } },
        });
      }
      expect((await issueToken(services.management)).status).toBe(200);
      const account = await call(`${services.rum.url}/admin/v1/accounts`, { body: { name: 'tls' }, headers: admin });
      expect(account.status).toBe(201);
      const workspace = await call(`${services.migration.url}/admin/v1/workspaces`, {
        body: { name: 'tls' },
        headers: admin,
      });
      expect(workspace.status).toBe(201);
      // Connected as the ACL user over TLS (the server has no plain port), and wrote the deployment's keys.
      const [host, port] = redis.addresses[0].split(':');
      const cli = (...args: string[]) => redisCli(certs, '-h', host, '-p', port, ...args).stdout;
      expect(cli('client', 'list')).toMatch(new RegExp(`user=${REDIS_USER.name} `));
      const keys = { stdout: cli('--scan', '--pattern', `*${prefix}*`) };
      expect(keys.stdout.trim().split('\n').filter(Boolean).length).toBeGreaterThan(0);
    } finally {
      await stopAll(services);
    }
  }, 300_000);

  it('a Redis Cluster of TLS nodes with AUTH in the seed URLs carries the limiter, caches and BullMQ', async () => {
    const seeds = cluster.addresses
      .map((address) => `rediss://${REDIS_USER.name}:${REDIS_USER.password}@${address}`)
      .join(',');
    let services: FourServices | undefined;
    try {
      services = await startFourServices({
        ...database(),
        REDIS_CLUSTER_NODES: seeds,
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_PREFIX: `managed-cluster-${randomBytes(3).toString('hex')}`,
        ADMIN_TOKEN_FILE: secrets['admin'],
        LOG_LEVEL: 'warn',
      });
      for (const service of Object.values(services)) expect((await call(`${service.url}/health`)).status).toBe(200);
      expect((await issueToken(services.management)).status).toBe(200);
      const workspace = await call(`${services.migration.url}/admin/v1/workspaces`, {
        body: { name: 'tls-cluster' },
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      expect(workspace.status).toBe(201);
    } finally {
      await stopAll(services);
    }
  }, 300_000);

  describe('refuses what it cannot verify', () => {
    const start = async (env: Record<string, string>) => {
      const port = await freePort();
      const service = startService(join(ROOT, 'apps/rum-ingestion/src/main.ts'), {
        NODE_OPTIONS: '-r @swc-node/register',
        PORT: String(port),
        REDIS_URL: `rediss://${redis.addresses[0]}`,
        REDIS_USERNAME: REDIS_USER.name,
        REDIS_PASSWORD: REDIS_USER.password,
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_PREFIX: `managed-refuse-${randomBytes(3).toString('hex')}`,
        SHUTDOWN_DRAIN_MS: '0',
        ...database(),
        ...env,
      });
      return { service, url: `http://127.0.0.1:${port}` };
    };
    const exitOf = (service: ReturnType<typeof startService>) =>
      waitFor(async () => (service.child.exitCode !== null ? service.child.exitCode : undefined), {
        timeoutMs: 90_000,
        intervalMs: 200,
        what: 'the service exits',
      });

    it('a PostgreSQL certificate from another CA: the service does not start', async () => {
      const { service } = await start({ DATABASE_TLS_CA_FILE: certs.wrongCa });
      try {
        expect(await exitOf(service)).not.toBe(0);
        expect(service.output()).toMatch(/certificate/i);
      } finally {
        await service.stop();
      }
    }, 120_000);

    it('no TLS to PostgreSQL: refused by the server, the service does not start', async () => {
      const { service } = await start({ DATABASE_TLS_CA_FILE: '' });
      try {
        expect(await exitOf(service)).not.toBe(0);
        expect(service.output()).toMatch(/no encryption|pg_hba/i);
      } finally {
        await service.stop();
      }
    }, 120_000);

    // A service needs Redis to start (it loads its limiter scripts): it stops instead of serving unverified.
    it('a Redis certificate from another CA: the service does not start', async () => {
      const { service } = await start({ REDIS_TLS_CA_FILE: certs.wrongCa });
      try {
        expect(await exitOf(service)).not.toBe(0);
        // The same settings with the right CA serve (the first test); the handshake's error is logged only as a
        // buffered warning, so the exit names the Redis command that could not be sent.
        expect(service.output()).toMatch(
          /rum-ingestion: failed to start: (MaxRetriesPerRequestError|Reached the max retries per request)/,
        );
      } finally {
        await service.stop();
      }
    }, 120_000);
  });
});
