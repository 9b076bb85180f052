/**
 * What tracing costs on POST /rum/ingest/errors, batches of 100 events against 20 IN rules (about a third of the
 * events match one and are dropped), as bench-http.ts loads it (tools/bench/support/tracing-cost.ts: variants,
 * options, report).
 *
 *   node -r @swc-node/register tools/bench/rum/bench-tracing.ts [--ratios 0,0.1] [--processes 3] [--duration 3] [--warmup 5] [--rounds 6] [--connections 16] [--rate N] [--together] [--profile] [--perf DIR]
 */
import { randomBytes } from 'node:crypto';
import { REDIS_URL } from '../support/database';
import { fetchJson } from '../support/load';
import { SERVICE_NODE_FLAGS, tsEntry } from '../support/processes';
import { benchTracingCost } from '../support/tracing-cost';
import { errorBatch } from './error-batch';

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const RULES = 20;
const BATCH = 100;
let clientToken = '';

const body = JSON.stringify({ events: errorBatch(BATCH, RULES) });

benchTracingCost({
  name: 'rum',
  title: `POST /rum/ingest/errors, batches of ${BATCH} events, ${RULES} rules`,
  env: ({ databaseUrl, redisPrefix }) => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    // The per-application quota would answer most of the load 429: the bench measures ingest, not the quota.
    RUM_INGEST_EVENTS_PER_SECOND: '100000000',
    RUM_INGEST_BYTES_PER_SECOND: String(100 * 1024 ** 3),
  }),
  start: (processes, nodeArgs, env) =>
    processes.start([...SERVICE_NODE_FLAGS, ...nodeArgs, ...tsEntry('apps/rum-ingestion/src/main.ts')], env),
  prepare: async ({ url }) => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const { account_id, app_key } = await fetchJson(`${url}/admin/v1/accounts`, { name: 'bench' }, admin);
    const application = await fetchJson(
      `${url}/admin/v1/applications`,
      { name: 'bench-web', owner_account_id: account_id },
      admin,
    );
    clientToken = (
      await fetchJson(`${url}/admin/v1/applications/${application.application_id}/client-tokens`, {}, admin)
    ).client_token;
    for (let n = 0; n < RULES; n += 1) {
      await fetchJson(`${url}/rum/error-ingestion/rules/create?app_key=${encodeURIComponent(app_key)}`, {
        application_id: application.application_id,
        rule_name: `bench-${n}`,
        filters: [[{ key: 'error.error_type', oper: 'IN', vals: [`Error${n * 3}`] }]],
      });
    }
  },
  load: (base, connections) => ({
    url: `${base}/rum/ingest/errors`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-rum-client-token': clientToken },
    body,
    connections,
  }),
});
