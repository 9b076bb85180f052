/**
 * GET /api/v2/rate-limit-policies?take=50 over 100,000 policies: the management API (auth, own rate limit,
 * validation, Nest) beside a raw node:http + pg handler with the same query and serialisation, in one run.
 *
 *   node -r @swc-node/register tools/bench/management/bench-list.ts [--duration 5] [--rounds 3] [--connections 64]  [--dist] [--profile] [--raw-prepared] [--raw-text-dates]
 *
 * --profile writes V8 CPU profiles of the app to /tmp/management-list-profile/ and of the raw handler to
 * /tmp/management-list-profile/raw/ (read them with `node tools/bench/management/top-frames.mjs <file>`).
 * --raw-prepared makes the raw handler use a named (prepared) statement as the app does (default: unnamed).
 * --raw-text-dates makes it read the timestamps as UTC text and write them as ISO by string surgery, as the app
 * does (default: pg's Date parsing and toISOString): with both flags the raw handler does the app's work minus the stack.
 *
 * Starts both servers as child processes on a fresh database (DATABASE_URL's server) and Redis prefix,
 * and removes them afterwards.
 */
import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { cpuSeconds, freePort, numberArg, Processes, SERVICE_NODE_FLAGS, waitUntil } from '../support/processes';
import { machineLine } from '../support/report';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';

const arg = numberArg;
const DURATION = arg('duration', 5);
const CONNECTIONS = arg('connections', 64);
const POLICIES = arg('policies', 100000);
const ROUNDS = arg('rounds', 3);
const PUBLIC_URL = 'https://bench.management.test';
const CLIENT = { id: 'bench-list-client', secret: randomBytes(32).toString('base64url') };
const processes = new Processes();
const LOAD_BEFORE = machineLine();

/** Services and raw baselines alike run with the services' V8 flags. */
const start = (args: string[], env: Record<string, string>) => processes.start([...SERVICE_NODE_FLAGS, ...args], env);

interface Figures {
  label: string;
  rps: number;
  /** Server CPU per request (ms): independent of how much CPU the shared machine left us. */
  cpuMsPerRequest: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(
  url: string,
  label: string,
  server: ChildProcess,
  headers: Record<string, string> = {},
): Promise<Figures> {
  const options = { url, headers, connections: CONNECTIONS };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const cpuMsPerRequest = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / result.requests.total;
  return {
    label,
    rps: result.requests.average,
    cpuMsPerRequest,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** The run with the median throughput (its p99 with it). */
function median(runs: Figures[]): Figures {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_mgmt_list');
  const prefix = benchRedisPrefix('bench:mgmt-list');
  try {
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const app = `http://127.0.0.1:${appPort}`;
    const raw = `http://127.0.0.1:${rawPort}`;
    // --dist runs the webpack build (`npx nx build management-api`) instead of the sources.
    const entry = process.argv.includes('--dist')
      ? ['dist/apps/management-api/main.js']
      : ['-r', '@swc-node/register', 'apps/management-api/src/main.ts'];
    if (process.argv.includes('--profile'))
      entry.unshift(
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/management-list-profile',
        '-r',
        './tools/bench/management/exit-on-sigterm.cjs',
      );
    const appProcess = start(entry, {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      PUBLIC_URL,
      LOG_LEVEL: 'warn',
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: CLIENT.id,
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: CLIENT.secret,
      MANAGEMENT_RATE_LIMIT_PER_SECOND: '10000000',
    });
    await waitUntil(async () => (await fetch(`${app}/health`)).status === 200, 'the management API');

    const db = new Client({ connectionString: database.url });
    await db.connect();
    await db.query(
      `INSERT INTO "${MANAGEMENT_SCHEMA}"."rate_limit_policies" ("id", "resource", "consumer", "consumer_selector", "configuration", "created_at", "updated_at")
       SELECT 'rlp_' || lpad(i::text, 21, '0'), 'oauth_authentication_api', 'client', 'client_id:bench-' || i,
              '{"action":"block","limit":10}'::jsonb, now() + i * interval '1 millisecond', now() + i * interval '1 millisecond'
       FROM generate_series(1, $1::int) AS i`,
      [POLICIES],
    );
    await db.query(`ANALYZE "${MANAGEMENT_SCHEMA}"."rate_limit_policies"`);
    await db.end();
    // Rows inserted behind the API's back: announce them as the API would, so the token endpoint's policy
    // cache loads them now rather than on its backstop tick in the middle of a measured run.
    const announcer = new Redis(REDIS_URL);
    await announcer.publish(`${prefix}:rate-limit-policies:changed`, String(Date.now()));
    announcer.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const tokenResponse = await fetch(`${app}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        audience: `${PUBLIC_URL}/api/v2/`,
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${token}` };

    // --profile profiles the raw handler too (raw/ below the app's directory): the frames both pay are the floor.
    const rawEntry = ['tools/bench/management/raw-list-server.mjs'];
    if (process.argv.includes('--profile'))
      rawEntry.unshift('--cpu-prof', '--cpu-prof-dir=/tmp/management-list-profile/raw');
    const rawProcess = start(rawEntry, {
      PORT: String(rawPort),
      DATABASE_URL: database.url,
      RAW_PREPARED: process.argv.includes('--raw-prepared') ? '1' : '0',
      RAW_TEXT_DATES: process.argv.includes('--raw-text-dates') ? '1' : '0',
    });
    await waitUntil(
      async () => (await fetch(`${raw}/api/v2/rate-limit-policies?take=50`)).status === 200,
      'the raw handler',
    );

    // Same bytes from both (apart from nothing): the comparison is like for like.
    const [ours, theirs] = await Promise.all([
      fetch(`${app}/api/v2/rate-limit-policies?take=50`, { headers }).then((r) => r.json()),
      fetch(`${raw}/api/v2/rate-limit-policies?take=50`).then((r) => r.json()),
    ]);
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error('the two handlers answer different bodies');

    // Alternate short runs so drift in the shared machine's load hits both sides alike; report medians.
    const rawRuns: Figures[] = [];
    const appRuns: Figures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      rawRuns.push(await load(`${raw}/api/v2/rate-limit-policies?take=50`, 'raw node:http + pg', rawProcess));
      appRuns.push(
        await load(
          `${app}/api/v2/rate-limit-policies?take=50`,
          'management-api (Nest, JWT, rate limit, validation)',
          appProcess,
          headers,
        ),
      );
      process.stdout.write(
        `round ${round + 1}: raw ${rawRuns[round].rps.toFixed(0)} req/s p99 ${rawRuns[round].p99} ms cpu ${rawRuns[round].cpuMsPerRequest.toFixed(2)} ms/req | ` +
          `app ${appRuns[round].rps.toFixed(0)} req/s p99 ${appRuns[round].p99} ms cpu ${appRuns[round].cpuMsPerRequest.toFixed(2)} ms/req\n`,
      );
    }
    const rawFigures = median(rawRuns);
    const appFigures = median(appRuns);

    const rawKind = `${process.argv.includes('--raw-prepared') ? 'prepared statement' : 'unnamed statement'}${process.argv.includes('--raw-text-dates') ? ', text timestamps' : ''}`;
    process.stdout.write(
      `\nGET /api/v2/rate-limit-policies?take=50 over ${POLICIES} policies, ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION} s runs (each after a 2 s warm-up); raw: ${rawKind}\n`,
    );
    process.stdout.write(
      `${new Date().toISOString()}, load average before ${LOAD_BEFORE}, after: ${machineLine()}\n\n`,
    );
    process.stdout.write(
      '| handler | req/s | p50 ms | p99 ms | server CPU ms/req | non-2xx/errors |\n|---|---:|---:|---:|---:|---:|\n',
    );
    for (const f of [rawFigures, appFigures]) {
      process.stdout.write(
        `| ${f.label} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.cpuMsPerRequest.toFixed(2)} | ${f.errors} |\n`,
      );
    }
    // Paired ratios: each round's app run against the raw run just before it, so the shared VM's drift
    // (its CPU steal moves both sides by ±30% between rounds) cancels out; the median of those is the verdict.
    const pairedMedian = (ratio: (raw: Figures, app: Figures) => number) => {
      const ratios = rawRuns.map((r, i) => ratio(r, appRuns[i])).sort((a, b) => a - b);
      return { median: ratios[Math.floor(ratios.length / 2)], all: ratios.map((x) => x.toFixed(2)).join(', ') };
    };
    const throughput = pairedMedian((r, a) => a.rps / r.rps);
    const tail = pairedMedian((r, a) => a.p99 / r.p99);
    const cpu = pairedMedian((r, a) => a.cpuMsPerRequest / r.cpuMsPerRequest);
    process.stdout.write(
      `\nthroughput ratio (app / raw), median of paired rounds: ${throughput.median.toFixed(3)} (target >= 0.85; rounds ${throughput.all})\n`,
    );
    process.stdout.write(
      `p99 ratio (app / raw), median of paired rounds: ${tail.median.toFixed(3)} (target <= 1.2; rounds ${tail.all})\n`,
    );
    process.stdout.write(
      `server CPU per request ratio (app / raw), median of paired rounds: ${cpu.median.toFixed(2)} (rounds ${cpu.all})\n`,
    );
    process.stdout.write(
      `ratios of the medians above: throughput ${(appFigures.rps / rawFigures.rps).toFixed(3)}, p99 ${(appFigures.p99 / rawFigures.p99).toFixed(3)}\n`,
    );
  } finally {
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
