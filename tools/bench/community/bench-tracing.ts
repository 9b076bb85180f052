/**
 * What tracing costs on POST .../push-notifications/devices (JWT check + upsert within the per-user cap), as
 * bench-community.ts loads it, over 2,000 users with five device tokens each, so the load settles into upserts
 * (tools/bench/support/tracing-cost.ts: variants, options, report).
 *
 *   node -r @swc-node/register tools/bench/community/bench-tracing.ts [--ratios 0,0.1] [--processes 3] [--duration 3] [--warmup 5] [--rounds 6] [--connections 16] [--rate N] [--together] [--profile] [--perf DIR]
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { REDIS_URL } from '../support/database';
import { fetchJson, jsonPosts } from '../support/load';
import { SERVICE_NODE_FLAGS, tsEntry } from '../support/processes';
import { benchTracingCost } from '../support/tracing-cost';
import { seedDeviceUsers } from './seed';

const SECRET = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const USERS = 2000;
const DEVICES_EACH = 5;
let projectId = '';
let jwts: string[] = [];
let sent = 0;

benchTracingCost({
  name: 'community',
  title: `POST /push-notifications/devices, ${USERS} users with ${DEVICES_EACH} devices each (upserts)`,
  env: ({ databaseUrl, redisPrefix }) => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    COMMUNITY_AUTH_SECRET: SECRET,
  }),
  start: (processes, nodeArgs, env) =>
    processes.start([...SERVICE_NODE_FLAGS, ...nodeArgs, ...tsEntry('apps/community-api/src/main.ts')], env),
  prepare: async ({ url, databaseUrl }) => {
    ({ id: projectId } = await fetchJson(
      `${url}/admin/v1/projects`,
      { name: 'bench', bundles: ['push'] },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    ));
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      jwts = await seedDeviceUsers(db, SECRET, projectId, USERS);
    } finally {
      await db.end();
    }
  },
  load: (base, connections) => ({
    url: `${base}/api/v6/${projectId}/api/v7/push-notifications/devices`,
    connections,
    requests: jsonPosts(
      () => JSON.stringify({ platform: 'ios', token: `device-${sent % (USERS * DEVICES_EACH)}` }),
      () => ({ authorization: `Bearer ${jwts[sent++ % USERS]}` }),
    ),
  }),
});
