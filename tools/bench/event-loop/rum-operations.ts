/** rum-ingestion: one 1,000-event batch matched against 50 rules. */
import { randomBytes } from 'node:crypto';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { freePort, localUrl, SERVICE_NODE_FLAGS, tsEntry, waitForHealth } from '../support/processes';
import { expectJson, ServiceContext, ServiceUnderTest } from './operation';
import { errorBatch } from '../rum/error-batch';

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const RULES = 50;
const EVENTS = 1000;

export async function startRumIngestion(context: ServiceContext): Promise<ServiceUnderTest> {
  const database = await createBenchDatabase('bench_event_loop_rum');
  const prefix = benchRedisPrefix('bench:event-loop:rum');
  context.cleanups.push(
    () => database.drop(),
    () => deleteRedisPrefix(prefix),
  );
  const port = await freePort();
  context.processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/rum-ingestion/src/main.ts')], {
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    RUM_CREATE_LIMIT_PER_SECOND: '1000',
    RUM_CREATE_LIMIT_PER_MINUTE: '100000',
  });
  const base = localUrl(port);
  await waitForHealth(base, 'the RUM ingestion service');
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const { account_id, app_key } = await expectJson(
    `${base}/admin/v1/accounts`,
    { body: { name: 'bench' }, headers: admin },
    201,
  );
  const { application_id } = await expectJson(
    `${base}/admin/v1/applications`,
    { body: { name: 'bench-web', owner_account_id: account_id }, headers: admin },
    201,
  );
  const { client_token } = await expectJson(
    `${base}/admin/v1/applications/${application_id}/client-tokens`,
    { body: {}, headers: admin },
    201,
  );
  for (let n = 0; n < RULES; n++)
    await expectJson(
      `${base}/rum/error-ingestion/rules/create?app_key=${encodeURIComponent(app_key)}`,
      {
        body: {
          application_id,
          rule_name: `bench-${n}`,
          filters: [[{ key: 'error.error_type', oper: 'IN', vals: [`Error${n * 3}`, `Error${n * 3 + 1}`] }]],
        },
      },
      200,
    );
  const body = JSON.stringify({ events: errorBatch(EVENTS, RULES) });
  return {
    base,
    operations: [
      {
        name: 'ingest-1000-events-50-rules',
        service: 'rum-ingestion',
        run: async () => {
          const response = await fetch(`${base}/rum/ingest/errors`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-rum-client-token': client_token },
            body,
          });
          const text = await response.text();
          if (!response.ok) throw new Error(`ingest: ${response.status} ${text.slice(0, 200)}`);
        },
      },
    ],
  };
}
