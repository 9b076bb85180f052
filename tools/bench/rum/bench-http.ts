/**
 * rum-ingestion over HTTP, in one run:
 *  1. rules/create latency at a rate under its limit (default 18/s against 20/s and 300/min): p50/p99, and
 *     that none was refused;
 *  2. ingest throughput with batches of 100 events (POST /rum/ingest/errors), in events/s, against the rule
 *     set that step 1 left (one IN rule per create; about a third of the events match one).
 *
 *   node -r @swc-node/register tools/bench/rum/bench-http.ts [--create-seconds 10] [--rate 18] [--duration 10] [--connections 16]
 *
 * Starts the app as a child process on a fresh database (DATABASE_URL's server) and Redis prefix, and
 * removes both afterwards.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..', '..');
const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const CREATE_SECONDS = arg('create-seconds', 10);
const RATE = arg('rate', 18);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 16);
const BATCH = 100;
const SERVER_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ADMIN_TOKEN = randomBytes(24).toString('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntil(probe: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** CPU seconds (user + system) a child has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function main(): Promise<void> {
  const dbName = `bench_rum_${randomBytes(4).toString('hex')}`;
  const prefix = `bench:rum:${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${dbName}`;
  let child: ChildProcess | undefined;
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/rum-ingestion/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), DATABASE_URL: dbUrl.toString(), REDIS_URL, REDIS_PREFIX: prefix, ADMIN_TOKEN, LOG_LEVEL: 'error' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitUntil(async () => (await fetch(`${base}/health`)).ok, 'the app');

    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { account_id, app_key } = await post(`${base}/admin/v1/accounts`, { name: 'bench' }, adminHeaders);
    const { application_id } = await post(`${base}/admin/v1/applications`, { name: 'bench-web', owner_account_id: account_id }, adminHeaders);
    const { client_token } = await post(`${base}/admin/v1/applications/${application_id}/client-tokens`, {}, adminHeaders);
    console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} cores, node ${process.version}`);

    let created = 0;
    const create = await autocannon({
      url: `${base}/rum/error-ingestion/rules/create?app_key=${encodeURIComponent(app_key)}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections: 4,
      overallRate: RATE,
      duration: CREATE_SECONDS,
      requests: [
        {
          setupRequest: (request) => {
            const n = created++;
            return {
              ...request,
              body: JSON.stringify({ application_id, rule_name: `bench-${n}`, filters: [[{ key: 'error.error_type', oper: 'IN', vals: [`Error${n * 3}`] }]] }),
            };
          },
        },
      ],
    });
    console.log(
      `rules/create at ${RATE}/s for ${CREATE_SECONDS}s: ${create.requests.total} requests, ${create.non2xx} refused/failed, ` +
        `latency p50 ${create.latency.p50} ms, p99 ${create.latency.p99} ms, max ${create.latency.max} ms; statuses ${JSON.stringify(create.statusCodeStats)}`,
    );

    const rules = created;
    const events = Array.from({ length: BATCH }, (_, i) => ({
      date: Date.now(),
      service: `svc-${i % 7}`,
      env: 'prod',
      error: { error_type: `Error${i % (rules * 3 || 1)}`, message: `something failed at step ${i}`, stack: 'at main (app.js:1:1)' },
      view: { url: `https://example.com/page${i % 13}` },
    }));
    const ingestOptions = {
      url: `${base}/rum/ingest/errors`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', 'x-rum-client-token': client_token },
      body: JSON.stringify({ events }),
      connections: CONNECTIONS,
    };
    await autocannon({ ...ingestOptions, duration: 2 }); // warm-up
    const cpuBefore = cpuSeconds(child.pid);
    const ingest = await autocannon({ ...ingestOptions, duration: DURATION });
    const serverCpu = cpuSeconds(child.pid) - cpuBefore;
    const probe = await post(ingestOptions.url, { events }, { 'x-rum-client-token': client_token });
    console.log(
      `ingest, batches of ${BATCH}, ${CONNECTIONS} connections, ${DURATION}s, ${rules} rules: ${Math.round(ingest.requests.average * BATCH).toLocaleString('en-US')} events/s ` +
        `(${ingest.requests.average.toFixed(0)} batches/s; per batch accepted ${probe.data.accepted}, dropped ${probe.data.dropped}), ` +
        `latency p50 ${ingest.latency.p50} ms, p99 ${ingest.latency.p99} ms, ${ingest.non2xx} non-2xx, ${ingest.errors} errors, ${ingest.timeouts} timeouts`,
    );
    // App-process CPU only (Postgres works beside it): the figure that does not depend on what the shared machine left us.
    console.log(
      `ingest app CPU: ${((serverCpu * 1000) / ingest.requests.total).toFixed(2)} ms per batch = ${Math.round((ingest.requests.total * BATCH) / serverCpu).toLocaleString('en-US')} events per app-CPU-second`,
    );
  } finally {
    child?.kill('SIGTERM');
    await new Promise((resolve) => (child ? child.once('exit', resolve) : resolve(undefined)));
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
