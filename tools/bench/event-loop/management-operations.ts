/** management-api: 3 concurrent signing-key rotations, and a 100-item page of rate-limit policies. */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { freePort, localUrl, SERVICE_NODE_FLAGS, sleep, tsEntry, waitForHealth } from '../support/processes';
import { expectJson, ServiceContext, ServiceUnderTest } from './operation';

const PUBLIC_URL = 'https://bench.management.test';
const CLIENT = { id: 'bench-event-loop-client', secret: randomBytes(32).toString('base64url') };
const POLICIES = 1000;

export async function startManagementApi(context: ServiceContext): Promise<ServiceUnderTest> {
  const database = await createBenchDatabase('bench_event_loop_management');
  const prefix = benchRedisPrefix('bench:event-loop:management');
  context.cleanups.push(
    () => database.drop(),
    () => deleteRedisPrefix(prefix),
  );
  const port = await freePort();
  context.processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('apps/management-api/src/main.ts')], {
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    PUBLIC_URL,
    LOG_LEVEL: 'warn',
    MANAGEMENT_BOOTSTRAP_CLIENT_ID: CLIENT.id,
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: CLIENT.secret,
    MANAGEMENT_RATE_LIMIT_PER_SECOND: '10000000',
  });
  const base = localUrl(port);
  await waitForHealth(base, 'the management API');

  const db = new Client({ connectionString: database.url });
  await db.connect();
  await db.query(
    `INSERT INTO "${MANAGEMENT_SCHEMA}"."rate_limit_policies" ("id", "resource", "consumer", "consumer_selector", "configuration", "created_at", "updated_at")
     SELECT 'rlp_' || lpad(i::text, 21, '0'), 'oauth_authentication_api', 'client', 'client_id:bench-' || i,
            '{"action":"block","limit":10}'::jsonb, now() + i * interval '1 millisecond', now() + i * interval '1 millisecond'
     FROM generate_series(1, $1::int) AS i`,
    [POLICIES],
  );
  await db.end();
  // Rows inserted behind the API's back: announce them as the API would, so its policy cache reloads now.
  const announcer = new Redis(REDIS_URL);
  await announcer.publish(`${prefix}:rate-limit-policies:changed`, String(Date.now()));
  announcer.disconnect();
  await sleep(1000);

  const { access_token: token } = await expectJson(
    `${base}/oauth/token`,
    {
      body: {
        grant_type: 'client_credentials',
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        audience: `${PUBLIC_URL}/api/v2/`,
      },
    },
    200,
  );
  const headers = { authorization: `Bearer ${token}` };
  return {
    base,
    operations: [
      {
        name: 'rotate-3-keys',
        service: 'management-api',
        run: async () => {
          await Promise.all(
            Array.from({ length: 3 }, () =>
              expectJson(`${base}/api/v2/keys/signing/rotate`, { method: 'POST', headers }, 201),
            ),
          );
        },
      },
      {
        name: 'policy-page-100',
        service: 'management-api',
        run: async () => {
          const page = await expectJson(`${base}/api/v2/rate-limit-policies?take=100`, { headers }, 200);
          const items = Array.isArray(page) ? page : (page.rate_limit_policies ?? page.policies ?? page.items);
          if (!Array.isArray(items) || items.length !== 100)
            throw new Error(`policy page: ${JSON.stringify(page).slice(0, 200)}`);
        },
      },
    ],
  };
}
