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
import { randomBytes } from 'node:crypto';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { fetchJson, measure } from '../support/load';
import { freePort, localUrl, numberArg, Processes, tsEntry, waitUntil } from '../support/processes';
import { machineLine } from '../support/report';

const CREATE_SECONDS = numberArg('create-seconds', 10);
const RATE = numberArg('rate', 18);
const DURATION = numberArg('duration', 10);
const CONNECTIONS = numberArg('connections', 16);
const BATCH = 100;
const ADMIN_TOKEN = randomBytes(24).toString('hex');

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_rum');
  const prefix = benchRedisPrefix('bench:rum');
  const processes = new Processes();
  try {
    const port = await freePort();
    const base = localUrl(port);
    const child = processes.start(
      tsEntry('apps/rum-ingestion/src/main.ts'),
      { PORT: String(port), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: prefix, ADMIN_TOKEN, LOG_LEVEL: 'error' },
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    await waitUntil(async () => (await fetch(`${base}/health`)).ok, 'the app');

    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { account_id, app_key } = await fetchJson(`${base}/admin/v1/accounts`, { name: 'bench' }, adminHeaders);
    const { application_id } = await fetchJson(`${base}/admin/v1/applications`, { name: 'bench-web', owner_account_id: account_id }, adminHeaders);
    const { client_token } = await fetchJson(`${base}/admin/v1/applications/${application_id}/client-tokens`, {}, adminHeaders);
    console.log(`${machineLine()}, node ${process.version}`);

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
    const { result: ingest, cpuMsPerRequest } = await measure('ingest', ingestOptions, { duration: DURATION, warmUp: 2, server: child });
    const probe = await fetchJson(ingestOptions.url, { events }, { 'x-rum-client-token': client_token });
    console.log(
      `ingest, batches of ${BATCH}, ${CONNECTIONS} connections, ${DURATION}s, ${rules} rules: ${Math.round(ingest.requests.average * BATCH).toLocaleString('en-US')} events/s ` +
        `(${ingest.requests.average.toFixed(0)} batches/s; per batch accepted ${probe.data.accepted}, dropped ${probe.data.dropped}), ` +
        `latency p50 ${ingest.latency.p50} ms, p99 ${ingest.latency.p99} ms, ${ingest.non2xx} non-2xx, ${ingest.errors} errors, ${ingest.timeouts} timeouts`,
    );
    // App-process CPU only (Postgres works beside it): the figure that does not depend on what the shared machine left us.
    console.log(
      `ingest app CPU: ${(cpuMsPerRequest as number).toFixed(2)} ms per batch = ${Math.round((BATCH * 1000) / (cpuMsPerRequest as number)).toLocaleString('en-US')} events per app-CPU-second`,
    );
  } finally {
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
