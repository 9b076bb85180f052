/**
 * community-api under load, beside a raw node:http + pg (+ ioredis) handler doing the same work, alternating
 * raw and app runs per round and reporting the median of the paired per-round ratios (as management/bench-list.ts):
 *  - POST .../auth/verify-email with valid, distinct tokens (each request consumes one; both handlers make the
 *    same two attempt-limiter calls to Redis), 64 connections;
 *  - POST .../push-notifications/devices, a new device per request (JWT check + upsert within the per-user cap) for
 *    4,000 users, the table emptied before each run, 64 connections;
 *  - sign-in: req/s at 1..16 connections, and device registration's p99 alone vs beside saturating sign-ins.
 *
 *   node -r @swc-node/register tools/bench/community/bench-community.ts [--duration 5] [--rounds 5] [--connections 64] [--profile] [--no-sign-in]
 *
 * --profile writes a V8 CPU profile of the app to /tmp/community-profile/ (read it with
 * `node tools/bench/management/top-frames.mjs <file>`). Starts both servers as child processes on a fresh
 * database (DATABASE_URL's server) and Redis prefix, and removes them afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { Figures, jsonPosts, measure } from '../support/load';
import {
  freePort,
  localUrl,
  numberArg,
  Processes,
  SERVICE_NODE_FLAGS,
  tsEntry,
  waitForHealth,
  waitUntil,
} from '../support/processes';
import { machineLine, markdownTable, median, medianRun } from '../support/report';
import { clearDevices, reviveTokens, seedDeviceUsers, seedTokens } from './seed';
import { signInFigures } from './sign-in-load';

const DURATION = numberArg('duration', 5);
const ROUNDS = numberArg('rounds', 5);
const CONNECTIONS = numberArg('connections', 64);
const TOKENS = numberArg('tokens', 60000);
// Enough users that no run takes one past the 20-devices cap (a new device per request, devices cleared per run).
const DEVICE_USERS = numberArg('device-users', 4000);
const SECRET = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const WARM_UP = 2;
const processes = new Processes();
// One client address sends everything: the limits are raised so every attempt is counted and allowed.
const LIMITS = {
  VERIFICATION_ATTEMPTS_PER_MINUTE: '1000000000',
  VERIFICATION_ATTEMPTS_PER_HOUR: '1000000000',
  VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR: '1000000000',
  SIGN_IN_ATTEMPTS_PER_MINUTE: '1000000000',
  SIGN_UPS_PER_ADDRESS_PER_MINUTE: '1000000000',
  SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000000000',
  PASSWORD_HASH_MAX_QUEUED: '10000',
};

interface Route {
  name: string;
  raw: Figures[];
  app: Figures[];
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as { code?: string; success?: boolean }) : {};
  return `${response.status} ${parsed.code ?? ''} ${parsed.success ?? ''}`;
};

/** Raw and app must answer alike (status, code, success) before any load: success, refusal and bad input. */
async function checkSameAnswers(cases: Array<[string, () => Promise<string>, () => Promise<string>]>): Promise<void> {
  for (const [what, raw, app] of cases) {
    const [r, a] = [await raw(), await app()];
    if (r !== a) throw new Error(`${what}: raw answers "${r}", app "${a}"`);
  }
}

function report(route: Route): string {
  const paired = (f: (raw: Figures, app: Figures) => number) => route.raw.map((r, i) => f(r, route.app[i]));
  const rps = paired((r, a) => a.rps / r.rps);
  const p99 = paired((r, a) => a.p99 / r.p99);
  const cpu = paired((r, a) => (a.cpuMsPerRequest ?? NaN) / (r.cpuMsPerRequest ?? NaN));
  const row = (f: Figures) => [
    f.label,
    f.rps.toFixed(0),
    f.p50,
    f.p99,
    (f.cpuMsPerRequest ?? NaN).toFixed(3),
    f.errors,
  ];
  let out = `\n### ${route.name}\n\n`;
  out += markdownTable(
    ['round', 'raw req/s', 'raw p99 ms', 'app req/s', 'app p99 ms', 'req/s ratio', 'p99 ratio', 'CPU/req ratio'],
    route.raw.map((r, i) => [
      i + 1,
      r.rps.toFixed(0),
      r.p99,
      route.app[i].rps.toFixed(0),
      route.app[i].p99,
      rps[i].toFixed(2),
      p99[i].toFixed(2),
      cpu[i].toFixed(2),
    ]),
  );
  out += `\nMedian runs (by req/s):\n\n${markdownTable(['handler', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'non-2xx/errors'], [row(medianRun(route.raw, (f) => f.rps)), row(medianRun(route.app, (f) => f.rps))])}`;
  out += `\n**Median of paired ratios (app / raw): throughput ${median(rps).toFixed(2)} (target >= 0.8), p99 ${median(p99).toFixed(2)} (target <= 1.5), server CPU per request ${median(cpu).toFixed(2)}**\n`;
  return out;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_community');
  const prefix = benchRedisPrefix('bench:community');
  const db = new Client({ connectionString: database.url });
  db.on('error', () => undefined); // dropped with the database in `finally` when a run fails
  try {
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const [app, raw] = [localUrl(appPort), localUrl(rawPort)];
    const entry = tsEntry('apps/community-api/src/main.ts');
    if (process.argv.includes('--profile'))
      entry.unshift(
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/community-profile',
        '-r',
        './tools/bench/management/exit-on-sigterm.cjs',
      );
    const appProcess = processes.start([...SERVICE_NODE_FLAGS, ...entry], {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      COMMUNITY_AUTH_SECRET: SECRET,
      ...LIMITS,
    });
    await waitForHealth(app, 'the community API');
    const created = await fetch(`${app}/admin/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'bench', bundles: ['push'] }),
    });
    const { id: projectId } = (await created.json()) as { id: string };
    const api = `${app}/api/v6/${projectId}/api/v7`;

    await db.connect();
    const appTokens = await seedTokens(db, SECRET, projectId, TOKENS);
    const rawTokens = await seedTokens(db, SECRET, projectId, TOKENS);
    const jwts = await seedDeviceUsers(db, SECRET, projectId, DEVICE_USERS);

    const rawProcess = processes.start([...SERVICE_NODE_FLAGS, ...tsEntry('tools/bench/community/raw-server.ts')], {
      PORT: String(rawPort),
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `${prefix}:raw`,
      PROJECT_ID: projectId,
      COMMUNITY_AUTH_SECRET: SECRET,
      ...LIMITS,
    });
    await waitUntil(async () => (await fetch(`${raw}/nothing`, { method: 'POST' })).status === 404, 'the raw handler');

    const bearer = { authorization: `Bearer ${jwts[0]}` };
    await checkSameAnswers([
      [
        'verify-email, valid token',
        () => post(`${raw}/verify-email`, { token: rawTokens[0] }),
        () => post(`${api}/auth/verify-email`, { token: appTokens[0] }),
      ],
      [
        'verify-email, spent token',
        () => post(`${raw}/verify-email`, { token: rawTokens[0] }),
        () => post(`${api}/auth/verify-email`, { token: appTokens[0] }),
      ],
      ['verify-email, no token', () => post(`${raw}/verify-email`, {}), () => post(`${api}/auth/verify-email`, {})],
      [
        'device, new',
        () => post(`${raw}/devices`, { platform: 'ios', token: 'check-raw' }, bearer),
        () => post(`${api}/push-notifications/devices`, { platform: 'ios', token: 'check-app' }, bearer),
      ],
      [
        'device, bad token',
        () => post(`${raw}/devices`, { platform: 'ios', token: 'x' }, { authorization: 'Bearer x' }),
        () => post(`${api}/push-notifications/devices`, { platform: 'ios', token: 'x' }, { authorization: 'Bearer x' }),
      ],
      [
        'device, bad body',
        () => post(`${raw}/devices`, { platform: 'nokia', token: 'x' }, bearer),
        () => post(`${api}/push-notifications/devices`, { platform: 'nokia', token: 'x' }, bearer),
      ],
    ]);

    const run = (
      label: string,
      url: string,
      server: typeof appProcess,
      body: () => string,
      headers?: () => Record<string, string>,
    ) =>
      measure(
        label,
        { url, timeout: 60, connections: CONNECTIONS, method: 'POST', requests: jsonPosts(body, headers) },
        { duration: DURATION, warmUp: WARM_UP, server },
      );
    let d = 0;
    const device = () =>
      JSON.stringify({ platform: d % 2 ? 'ios' : 'android', token: `device-${d++}-${randomBytes(8).toString('hex')}` });
    const auth = () => ({ authorization: `Bearer ${jwts[d % jwts.length]}` });
    const verify: Route = { name: `POST .../auth/verify-email (valid tokens, each consumed once)`, raw: [], app: [] };
    const devices: Route = { name: 'POST .../push-notifications/devices (new device per request)', raw: [], app: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      let [r, a] = [1, 1];
      await reviveTokens(db);
      verify.raw.push(
        await run('raw node:http + pg + ioredis', `${raw}/verify-email`, rawProcess, () =>
          JSON.stringify({ token: rawTokens[r++ % TOKENS] }),
        ),
      );
      verify.app.push(
        await run('community-api', `${api}/auth/verify-email`, appProcess, () =>
          JSON.stringify({ token: appTokens[a++ % TOKENS] }),
        ),
      );
      if (Math.max(r, a) > TOKENS)
        process.stderr.write(`warning: ${Math.max(r, a)} verify requests for ${TOKENS} tokens; raise --tokens\n`);
      await clearDevices(db);
      devices.raw.push(await run('raw node:http + pg', `${raw}/devices`, rawProcess, device, auth));
      await clearDevices(db);
      devices.app.push(await run('community-api', `${api}/push-notifications/devices`, appProcess, device, auth));
      const line = (route: Route) =>
        `${route.raw[round].rps.toFixed(0)}/${route.app[round].rps.toFixed(0)} req/s, p99 ${route.raw[round].p99}/${route.app[round].p99} ms`;
      process.stderr.write(`round ${round + 1}: verify raw/app ${line(verify)}; devices raw/app ${line(devices)}\n`);
    }

    let out = `\n${machineLine()}; ${CONNECTIONS} connections; ${ROUNDS} rounds, each a raw run then an app run of ${DURATION} s after a ${WARM_UP} s warm-up\n`;
    out += report(verify) + report(devices);
    if (!process.argv.includes('--no-sign-in')) {
      out += await signInFigures({
        api,
        app: appProcess,
        duration: DURATION,
        rounds: ROUNDS,
        levels: [1, 2, 4, 8, 16],
        other: {
          label: 'device registration',
          url: `${api}/push-notifications/devices`,
          body: device,
          headers: auth,
          connections: 16,
        },
      });
    }
    process.stdout.write(out);
  } finally {
    await db.end().catch(() => undefined);
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  processes.killAll();
  process.exitCode = 1;
});
