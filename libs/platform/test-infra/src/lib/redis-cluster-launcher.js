// A real Redis Cluster on loopback for tests and `npm test` (tools/launcher/test.mjs): six redis-server processes (three masters, three
// replicas) joined by `redis-cli --cluster create`. CommonJS so that both the ESM launchers and Jest load it.
const { spawn, spawnSync } = require('node:child_process');
const { mkdirSync, rmSync } = require('node:fs');
const net = require('node:net');
const { join } = require('node:path');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ports for test servers come from below Linux's ephemeral range (32768-60999 by default). A port the OS picked for
 * a probe's listen(0) is an ephemeral one, and between the probe and the server's own listen any outgoing connection
 * of a concurrent test (to PostgreSQL, Redis) could take it as its local port: the server then failed with EADDRINUSE.
 */
const OWN_PORTS = { min: 20000, max: 32767 };
/** Cluster nodes also listen on port + 10000 (the cluster bus), which must stay below the ephemeral range too. */
const CLUSTER_PORTS = { min: OWN_PORTS.min, max: OWN_PORTS.max - 10000 };

function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    // The wildcard address conflicts with a listener on any local address, loopback included.
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

async function freePort({ min, max } = OWN_PORTS, taken = new Set()) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = min + Math.floor(Math.random() * (max - min + 1));
    if (!taken.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free TCP port between ${min} and ${max}`);
}

/** `count` distinct free ports whose cluster bus ports (+10000) are free too. */
async function freeClusterPorts(count) {
  const ports = new Set();
  while (ports.size < count) {
    const port = await freePort(CLUSTER_PORTS, ports);
    if (await canListen(port + 10000)) ports.add(port);
  }
  return [...ports];
}

function cli(port, ...args) {
  const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    encoding: 'utf8',
    timeout: 5000,
  });
  return result.status === 0 ? result.stdout : '';
}

async function waitUntil(probe, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(100);
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

/**
 * Starts a six-node cluster in `dir` (emptied first). `nodeTimeoutMs` is cluster-node-timeout: how long a
 * master may be silent before its replica is promoted.
 * @returns {Promise<{nodes: string, ports: number[], masterPorts(): number[], kill(port: number): Promise<void>, stop(): Promise<void>}>}
 */
async function startRedisCluster({ dir, nodeTimeoutMs = 1000, ports } = {}) {
  if (!spawnSync('sh', ['-c', 'command -v redis-server && command -v redis-cli']).stdout.toString().trim()) {
    throw new Error('a Redis Cluster needs redis-server and redis-cli (sudo apt-get install -y redis-server)');
  }
  ports = ports ?? (await freeClusterPorts(6));
  rmSync(dir, { recursive: true, force: true });
  const children = new Map();
  for (const port of ports) {
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir, { recursive: true });
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        nodeDir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
      ],
      { stdio: 'ignore', detached: true },
    );
    children.set(port, child);
  }
  await waitUntil(
    () => ports.every((port) => cli(port, 'ping').startsWith('PONG')),
    'the cluster nodes did not answer',
    10000,
  );
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'],
    { encoding: 'utf8', timeout: 30000 },
  );
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  const ready = () =>
    ports.every((port) => cli(port, 'cluster', 'info').includes('cluster_state:ok')) &&
    ports.every((port) => {
      const info = cli(port, 'info', 'replication');
      return info.includes('role:master') || info.includes('master_link_status:up');
    });
  await waitUntil(ready, 'the cluster did not reach cluster_state:ok', 30000);

  const kill = async (port) => {
    const child = children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    ports,
    masterPorts: () => ports.filter((port) => cli(port, 'info', 'replication').includes('role:master')),
    kill,
    async stop() {
      await Promise.all(ports.map(kill));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startRedisCluster, freePort };
