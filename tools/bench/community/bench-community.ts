/**
 * community-api under load, beside a raw node:http + pg handler doing the same SQL in the same run:
 *  - POST .../auth/verify-email with valid, distinct tokens (each request consumes one), 64 connections;
 *  - POST .../push-notifications/devices, a new device per request (JWT check + upsert), 64 connections;
 *  - sign-in cost: scrypt (N=2^15, r=8, p=1) per hash in-process, and sign-in req/s + p99 over HTTP.
 *
 *   node -r @swc-node/register tools/bench/community/bench-community.ts [--duration 10] [--connections 64]
 *
 * Starts both servers as child processes on a fresh database (DATABASE_URL's server) and Redis prefix,
 * and removes them afterwards.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from '@acme/platform-auth';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { Figures, jsonPosts, measure } from '../support/load';
import { freePort, localUrl, numberArg, Processes, tsEntry, waitForHealth, waitUntil } from '../support/processes';
import { figuresTable, ratioLine } from '../support/report';

const DURATION = numberArg('duration', 10);
const CONNECTIONS = numberArg('connections', 64);
const TOKENS = numberArg('tokens', 60000);
const SECRET = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const processes = new Processes();
const derive = (purpose: string) => createHmac('sha256', SECRET).update(`community:${purpose}`).digest();

/** One autocannon run (after a warm-up, 3 s by default) whose bodies come from `next()`. */
const load = (label: string, url: string, next: () => string, headers?: () => Record<string, string>, shape: { connections?: number; warmUp?: number } = {}) =>
  measure(label, { url, timeout: 60, connections: shape.connections ?? CONNECTIONS, method: 'POST', requests: jsonPosts(next, headers) }, { duration: DURATION, warmUp: shape.warmUp ?? 3 });

/** Users, each with one live verification token (consuming one consumes the user's others). */
async function seedTokens(db: Client, projectId: string, count: number): Promise<string[]> {
  const key = derive('verification-token');
  const ids = Array.from({ length: count }, () => randomUUID());
  const tokens = Array.from({ length: count }, () => randomBytes(32).toString('hex'));
  const digests = tokens.map((token) => createHmac('sha256', key).update(`${projectId}:${token}`).digest('hex'));
  for (let start = 0; start < count; start += 20000) {
    const slice = (values: string[]) => values.slice(start, start + 20000);
    await db.query(
      `INSERT INTO community.users (id, project_id, email, password_hash) SELECT id, $1, 'bench-' || id || '@example.com', 'x' FROM unnest($2::uuid[]) AS id`,
      [projectId, slice(ids)],
    );
    await db.query(
      `INSERT INTO community.verification_tokens (project_id, user_id, token_digest, mode, expires_at)
       SELECT $1, u, d, 'code', now() + interval '1 hour' FROM unnest($2::uuid[], $3::text[]) AS t(u, d)`,
      [projectId, slice(ids), slice(digests)],
    );
  }
  await db.query('ANALYZE community.users; ANALYZE community.verification_tokens');
  return tokens;
}

const table = (title: string, rows: Figures[]) => `\n${title}\n\n${figuresTable(rows)}\n${ratioLine(rows[0], rows[1])}\n`;

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_community');
  const prefix = benchRedisPrefix('bench:community');
  try {
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const app = localUrl(appPort);
    const raw = localUrl(rawPort);
    processes.start(tsEntry('apps/community-api/src/main.ts'), {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      COMMUNITY_AUTH_SECRET: SECRET,
      // The benchmark measures throughput, not the attempt limit (one client address sends everything).
      VERIFICATION_ATTEMPTS_PER_MINUTE: '1000000000',
      VERIFICATION_ATTEMPTS_PER_HOUR: '1000000000',
      SIGN_IN_ATTEMPTS_PER_MINUTE: '1000000000',
    });
    await waitForHealth(app, 'the community API');
    const created = await fetch(`${app}/admin/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'bench', bundles: ['push'] }),
    });
    const { id: projectId } = (await created.json()) as { id: string };
    const api = `${app}/api/v6/${projectId}/api/v7`;

    const db = new Client({ connectionString: database.url });
    await db.connect();
    const appTokens = await seedTokens(db, projectId, TOKENS);
    const rawTokens = await seedTokens(db, projectId, TOKENS);
    const deviceUsers = Array.from({ length: 64 }, () => randomUUID());
    await db.query(`INSERT INTO community.users (id, project_id, email, password_hash) SELECT id, $1, 'dev-' || id || '@example.com', 'x' FROM unnest($2::uuid[]) AS id`, [projectId, deviceUsers]);
    await db.end();
    const accessKey = derive('access-token');
    const jwts = deviceUsers.map((sub) => jwt.sign({}, accessKey, { algorithm: 'HS256', audience: projectId, issuer: 'community-api', subject: sub, expiresIn: 1800 }));

    processes.start(['tools/bench/community/raw-server.mjs'], { PORT: String(rawPort), DATABASE_URL: database.url, PROJECT_ID: projectId, COMMUNITY_AUTH_SECRET: SECRET });
    await waitUntil(async () => (await fetch(`${raw}/nothing`, { method: 'POST' })).status === 404, 'the raw handler');

    let a = 0;
    let r = 0;
    const verifyRaw = await load('raw node:http + pg', `${raw}/verify-email`, () => JSON.stringify({ token: rawTokens[r++ % rawTokens.length] }));
    const verifyApp = await load('community-api (Nest, project guard, limiter, validation)', `${api}/auth/verify-email`, () => JSON.stringify({ token: appTokens[a++ % appTokens.length] }));
    const used = { raw: r, app: a };

    let d = 0;
    const device = () => JSON.stringify({ platform: d % 2 ? 'ios' : 'android', token: `device-${d++}-${randomBytes(8).toString('hex')}` });
    const auth = () => ({ authorization: `Bearer ${jwts[d % jwts.length]}` });
    const devicesRaw = await load('raw node:http + pg', `${raw}/devices`, device, auth);
    const devicesApp = await load('community-api (Nest, project + caller guards, bundle, parser)', `${api}/push-notifications/devices`, device, auth);

    // Sign-in: the scrypt cost in-process, then the route under load.
    const stored = await hashPassword('bench password 123');
    const started = process.hrtime.bigint();
    for (let i = 0; i < 10; i += 1) await verifyPassword('bench password 123', stored);
    const perHashMs = Number(process.hrtime.bigint() - started) / 1e6 / 10;
    const credentials = JSON.stringify({ email: 'signin@example.com', password: 'bench password 123' });
    const post = (path: string) => fetch(`${api}/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials });
    const signedUp = await post('sign-up');
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.status} ${await signedUp.text()}`);
    const sequential: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = process.hrtime.bigint();
      const response = await post('sign-in');
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
      await response.arrayBuffer();
      sequential.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    // CPU-bound: 8 connections already saturate both cores (64 would only queue behind the thread pool).
    const signIn = await load('community-api sign-in, 8 connections', `${api}/auth/sign-in`, () => credentials, undefined, { connections: 8, warmUp: 0 });

    const out = process.stdout;
    out.write(`\n${CONNECTIONS} connections, ${DURATION} s per run after a 3 s warm-up; ${TOKENS} tokens seeded per handler\n`);
    out.write(table(`POST .../auth/verify-email (valid tokens, each consumed once; used raw ${used.raw}, app ${used.app})`, [verifyRaw, verifyApp]));
    out.write(table('POST .../push-notifications/devices (new device per request)', [devicesRaw, devicesApp]));
    out.write(`\nSign-in: scrypt N=${DEFAULT_SCRYPT.N}, r=${DEFAULT_SCRYPT.r}, p=${DEFAULT_SCRYPT.p} (${(128 * DEFAULT_SCRYPT.N * DEFAULT_SCRYPT.r) / 2 ** 20} MiB per hash): ${perHashMs.toFixed(1)} ms per verification in-process\n`);
    out.write(`Sequential HTTP sign-in (one at a time): ${(sequential.reduce((x, y) => x + y, 0) / sequential.length).toFixed(1)} ms mean\n\n`);
    out.write(figuresTable([signIn]));
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
