/**
 * rum-ingestion over HTTP, in one run:
 *  1. rules/create latency at a rate under its limit (default 15/s against 20/s and 300/min): p50/p99, and
 *     that none was refused;
 *  2. ingest with batches of 100 events (POST /rum/ingest/errors) against the rule set step 1 left (one IN rule
 *     per create; about a third of the events match one), beside a raw node:http + pg handler doing the same
 *     work (raw-ingest-server.ts: same token lookup, same compiled matcher, same two statements). Both first
 *     answer the same batch; the bench checks they accept and drop the same events and write the same rows and
 *     counters, then alternates raw and app runs per round and reports the median of the paired per-round
 *     ratios (each app run against the raw run just before it) of events/s and p99.
 *
 *   node -r @swc-node/register tools/bench/rum/bench-http.ts [--create-seconds 6] [--rate 15] [--duration 10] [--rounds 5] [--connections 16] [--profile] [--unpartitioned]
 *
 * --unpartitioned swaps `rum.error_events` for a plain table of the same columns, defaults and indexes once the
 * app has migrated (same code, same statements): run it alternately with a plain run to see what partitioning
 * costs ingest.
 *
 * --profile writes a V8 CPU profile of the app to /tmp/rum-ingest-profile/ (read it with
 * `node tools/bench/management/top-frames.mjs <file>`).
 * Starts both servers as child processes (with the services' V8 flags) on a fresh database (DATABASE_URL's
 * server) and Redis prefix, and removes both afterwards.
 */
import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { fetchJson, Figures, measure } from '../support/load';
import { freePort, localUrl, numberArg, Processes, SERVICE_NODE_FLAGS, tsEntry, waitUntil } from '../support/processes';
import { machineLine, markdownTable, median } from '../support/report';
import { errorBatch } from './error-batch';

// 6 s at 15/s stays under the 100-rule cap of an application (RULE_SET_LIMITS).
const CREATE_SECONDS = numberArg('create-seconds', 6);
const RATE = numberArg('rate', 15);
const DURATION = numberArg('duration', 10);
const ROUNDS = numberArg('rounds', 5);
const CONNECTIONS = numberArg('connections', 16);
const BATCH = 100;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PROFILE = process.argv.includes('--profile')
  ? ['--cpu-prof', '--cpu-prof-dir=/tmp/rum-ingest-profile', '-r', './tools/bench/management/exit-on-sigterm.cjs']
  : [];

const UNPARTITIONED = process.argv.includes('--unpartitioned');

type Run = Figures & { eventsPerSecond: number; cpuMsPerBatch: number };

/** The events table as it was before partitioning: one plain table with the same columns, defaults and indexes. */
async function unpartitionEvents(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE rum.error_events_plain (LIKE rum.error_events INCLUDING ALL)`);
    await client.query(`ALTER TABLE rum.error_events RENAME TO error_events_partitioned`);
    await client.query(`ALTER TABLE rum.error_events_plain RENAME TO error_events`);
    console.log('rum.error_events: a plain table (--unpartitioned)');
  } finally {
    await client.end();
  }
}

async function createRules(base: string, appKey: string, applicationId: string): Promise<number> {
  let created = 0;
  const create = await autocannon({
    url: `${base}/rum/error-ingestion/rules/create?app_key=${encodeURIComponent(appKey)}`,
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
            body: JSON.stringify({
              application_id: applicationId,
              rule_name: `bench-${n}`,
              filters: [[{ key: 'error.error_type', oper: 'IN', vals: [`Error${n * 3}`] }]],
            }),
          };
        },
      },
    ],
  });
  console.log(
    `rules/create at ${RATE}/s for ${CREATE_SECONDS}s: ${create.requests.total} requests, ${create.non2xx} refused/failed, ` +
      `latency p50 ${create.latency.p50} ms, p99 ${create.latency.p99} ms, max ${create.latency.max} ms; statuses ${JSON.stringify(create.statusCodeStats)}`,
  );
  return created;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_rum');
  const prefix = benchRedisPrefix('bench:rum');
  const processes = new Processes();
  const db = new Client({ connectionString: database.url });
  try {
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const [app, raw] = [localUrl(appPort), localUrl(rawPort)];
    const appProcess = processes.start(
      [...SERVICE_NODE_FLAGS, ...PROFILE, ...tsEntry('apps/rum-ingestion/src/main.ts')],
      {
        PORT: String(appPort),
        DATABASE_URL: database.url,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        ADMIN_TOKEN,
        LOG_LEVEL: 'error',
        // The per-application quota would answer most of the load 429: the bench measures ingest, not the quota.
        RUM_INGEST_EVENTS_PER_SECOND: '100000000',
        RUM_INGEST_BYTES_PER_SECOND: String(100 * 1024 ** 3),
      },
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    await waitUntil(async () => (await fetch(`${app}/health`)).ok, 'the app');
    if (UNPARTITIONED) await unpartitionEvents(database.url);
    // After the app: its migrations made the schema the raw server writes to.
    const rawProcess = processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('tools/bench/rum/raw-ingest-server.ts')], {
      PORT: String(rawPort),
      DATABASE_URL: database.url,
    });
    await db.connect();

    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { account_id, app_key } = await fetchJson(`${app}/admin/v1/accounts`, { name: 'bench' }, adminHeaders);
    const { application_id } = await fetchJson(
      `${app}/admin/v1/applications`,
      { name: 'bench-web', owner_account_id: account_id },
      adminHeaders,
    );
    const { client_token } = await fetchJson(
      `${app}/admin/v1/applications/${application_id}/client-tokens`,
      {},
      adminHeaders,
    );
    console.log(`${machineLine()}, node ${process.version}`);

    const rules = await createRules(app, app_key, application_id);
    const events = errorBatch(BATCH, rules);
    const body = JSON.stringify({ events });
    const headers = { 'content-type': 'application/json', 'x-rum-client-token': client_token };
    const ingestUrl = (base: string) => `${base}/rum/ingest/errors`;
    await waitUntil(async () => (await fetch(ingestUrl(raw), { method: 'POST', headers, body })).ok, 'the raw server');

    // Equal outcomes: the same batch through each gives the same answer, stored rows and per-rule counters.
    const state = async () => {
      const [{ rows, payloads }] = (
        await db.query(
          `SELECT count(*)::int AS rows, md5(string_agg(payload::text, ',' ORDER BY payload::text)) AS payloads FROM rum.error_events`,
        )
      ).rows;
      const [{ discarded }] = (
        await db.query(`SELECT coalesce(sum(discarded_count), 0)::int AS discarded FROM rum.rules`)
      ).rows;
      return { rows: rows as number, payloads: payloads as string, discarded: discarded as number };
    };
    await db.query('TRUNCATE rum.error_events');
    await db.query('UPDATE rum.rules SET discarded_count = 0');
    const outcome = async (base: string) => {
      const before = await state();
      const answer = (await fetchJson(ingestUrl(base), { events }, { 'x-rum-client-token': client_token })).data as {
        accepted: number;
        dropped: number;
      };
      const after = await state();
      return {
        ...answer,
        rowsInserted: after.rows - before.rows,
        discardedCounted: after.discarded - before.discarded,
        payloads: after.payloads,
      };
    };
    const rawOutcome = await outcome(raw);
    await db.query('TRUNCATE rum.error_events');
    const appOutcome = await outcome(app);
    console.log(
      `one batch of ${BATCH} through each: raw ${JSON.stringify(rawOutcome)}; app ${JSON.stringify(appOutcome)}`,
    );
    if (JSON.stringify(rawOutcome) !== JSON.stringify(appOutcome))
      throw new Error('the raw handler and the app disagree on the outcome');

    const run = async (label: string, base: string, server: ChildProcess): Promise<Run> => {
      const figures = await measure(
        label,
        { url: ingestUrl(base), method: 'POST', headers, body, connections: CONNECTIONS },
        { duration: DURATION, warmUp: 2, server },
      );
      return { ...figures, eventsPerSecond: figures.rps * BATCH, cpuMsPerBatch: figures.cpuMsPerRequest as number };
    };
    const rawRuns: Run[] = [];
    const appRuns: Run[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      rawRuns.push(await run('raw node:http + pg + compiled matcher', raw, rawProcess));
      appRuns.push(await run('POST /rum/ingest/errors', app, appProcess));
      const [r, a] = [rawRuns[round], appRuns[round]];
      console.log(
        `round ${round + 1}: raw ${r.eventsPerSecond.toFixed(0)} events/s p99 ${r.p99} ms cpu ${r.cpuMsPerBatch.toFixed(2)} ms/batch | ` +
          `app ${a.eventsPerSecond.toFixed(0)} events/s p99 ${a.p99} ms cpu ${a.cpuMsPerBatch.toFixed(2)} ms/batch`,
      );
    }
    const errors = [...rawRuns, ...appRuns].reduce((sum, f) => sum + f.errors, 0);
    const paired = (ratio: (r: Run, a: Run) => number) => rawRuns.map((r, i) => ratio(r, appRuns[i]));
    const throughput = paired((r, a) => a.eventsPerSecond / r.eventsPerSecond);
    const tail = paired((r, a) => a.p99 / r.p99);
    const cpu = paired((r, a) => a.cpuMsPerBatch / r.cpuMsPerBatch);
    const fixed = (values: number[]) => values.map((x) => x.toFixed(2));

    console.log(
      `\ningest, batches of ${BATCH} (${rawOutcome.accepted} stored, ${rawOutcome.dropped} dropped), ${rules} rules, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s (each after a 2 s warm-up), ${errors} non-2xx/errors`,
    );
    console.log(`${machineLine()} (after the runs), node ${process.version}\n`);
    console.log(
      markdownTable(
        ['round', ...rawRuns.map((_, i) => String(i + 1)), 'median'],
        [
          [
            'raw, events/s',
            ...rawRuns.map((r) => r.eventsPerSecond.toFixed(0)),
            median(rawRuns.map((r) => r.eventsPerSecond)).toFixed(0),
          ],
          [
            'app, events/s',
            ...appRuns.map((r) => r.eventsPerSecond.toFixed(0)),
            median(appRuns.map((r) => r.eventsPerSecond)).toFixed(0),
          ],
          ['**events/s ratio**', ...fixed(throughput), `**${median(throughput).toFixed(2)}**`],
          ['raw, p99 ms', ...rawRuns.map((r) => r.p99), median(rawRuns.map((r) => r.p99))],
          ['app, p99 ms', ...appRuns.map((r) => r.p99), median(appRuns.map((r) => r.p99))],
          ['**p99 ratio**', ...fixed(tail), `**${median(tail).toFixed(2)}**`],
          [
            'raw, CPU ms/batch',
            ...rawRuns.map((r) => r.cpuMsPerBatch.toFixed(2)),
            median(rawRuns.map((r) => r.cpuMsPerBatch)).toFixed(2),
          ],
          [
            'app, CPU ms/batch',
            ...appRuns.map((r) => r.cpuMsPerBatch.toFixed(2)),
            median(appRuns.map((r) => r.cpuMsPerBatch)).toFixed(2),
          ],
          ['CPU ratio', ...fixed(cpu), median(cpu).toFixed(2)],
        ],
      ),
    );
    console.log(
      `median of paired ratios (app / raw): events/s ${median(throughput).toFixed(3)} (target >= 0.8), p99 ${median(tail).toFixed(3)}, server CPU per batch ${median(cpu).toFixed(2)}`,
    );
  } finally {
    await db.end().catch(() => undefined);
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
