// PostgreSQL's own CPU per list page, unnamed vs named (prepared) statement: one connection runs the list's
// keyset query 3,000 times each way (twice, alternating) on a scratch database of 100,000 policy-shaped rows,
// and reads the backend's CPU time from /proc (PostgreSQL must run on this machine).
//   node tools/bench/management/prepared-statement-probe.mjs
import { readFileSync } from 'node:fs';
import pg from 'pg';

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = `bench_prepared_probe_${process.pid}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${scratch}`);
const url = new URL(server);
url.pathname = `/${scratch}`;
const client = new pg.Client({ connectionString: url.toString() });
try {
  await client.connect();
  await client.query(`CREATE TABLE p (id text PRIMARY KEY, resource text, consumer text, consumer_selector text, configuration jsonb,
    created_at timestamptz(3), updated_at timestamptz(3)); CREATE INDEX ON p (created_at, id)`);
  await client.query(`INSERT INTO p SELECT 'rlp_' || lpad(i::text, 21, '0'), 'oauth_authentication_api', 'client', 'client_id:b' || i,
    '{"action":"block","limit":10}', now() + i * interval '1 ms', now() + i * interval '1 ms' FROM generate_series(1, 100000) AS i; ANALYZE p`);
  const text =
    'SELECT "id", "resource", "consumer", "consumer_selector", "configuration", "created_at", "updated_at" FROM p ORDER BY "created_at", "id" LIMIT $1';
  const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
  const backendCpuMs = () => {
    const fields = readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
  };
  for (const mode of ['unnamed', 'named', 'unnamed', 'named']) {
    const n = 3000;
    const [cpu0, t0] = [backendCpuMs(), performance.now()];
    for (let i = 0; i < n; i += 1)
      await client.query(mode === 'named' ? { name: 'list', text, values: [51] } : { text, values: [51] });
    const wallUs = ((performance.now() - t0) / n) * 1000;
    process.stdout.write(
      `${mode}: ${wallUs.toFixed(0)} µs per query (wall), ${(((backendCpuMs() - cpu0) / n) * 1000).toFixed(0)} µs backend CPU per query\n`,
    );
  }
} finally {
  await client.end();
  await admin.query(`DROP DATABASE ${scratch}`);
  await admin.end();
}
