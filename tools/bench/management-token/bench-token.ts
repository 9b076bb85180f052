/**
 * Tokens/s of POST /oauth/token with no policy, a matching `allow` policy and a non-triggering `block`
 * policy, beside a raw node:http endpoint doing the same secret check and RS256 signing, in one run.
 *
 *   node -r @swc-node/register tools/bench/management-token/bench-token.ts [--raw-sign async] [--duration 5] [--connections 16] [--rounds 3] [--profile]
 *
 * --raw-sign async makes the raw endpoint sign on libuv's thread pool as the app does (default: on its event
 * loop, the baseline of issue 17's table); the ratio against it isolates what the framework costs.
 * --profile writes a V8 CPU profile of the app to /tmp/management-token-profile/ (read it with
 * `node tools/bench/management/top-frames.mjs <file>`).
 *
 * Starts everything it needs (a fresh database on DATABASE_URL's server, a fresh Redis prefix) and removes it.
 * The four runs are interleaved over several rounds and the median of each is reported, so a neighbour's
 * load on a shared machine skews all of them alike instead of one.
 */
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import {
  cpuSeconds,
  freePort,
  numberArg,
  Processes,
  runBench,
  SERVICE_NODE_FLAGS,
  waitUntil,
} from '../support/processes';
import { machineLine, median } from '../support/report';
import {
  AUDIENCE,
  CLIENT_ID,
  CLIENT_SECRET,
  HMAC_KEY,
  managementAppEnv,
  PUBLIC_URL,
  SIGNING_KEY,
  startManagementApp,
  tokenBody,
  tokenLoad,
} from './app';
import { TOKEN_BUCKET_TAKE } from '../../../libs/platform/rate-limiting/src/lib/scripts';

const arg = numberArg;
const DURATION = arg('duration', 5);
const ROUNDS = arg('rounds', 4);
const CONNECTIONS = arg('connections', 16);
const processes = new Processes();
const LOAD_BEFORE = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const RAW_SIGN = process.argv.includes('--raw-sign') ? process.argv[process.argv.indexOf('--raw-sign') + 1] : 'sync';

/** Services and raw baselines alike run with the services' V8 flags. */
const start = (args: string[], env: Record<string, string>) => processes.start([...SERVICE_NODE_FLAGS, ...args], env);

const requestToken = (base: string) =>
  fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody });

interface Figures {
  label: string;
  rps: number;
  p99: number;
  errors: number;
  /** Server CPU per token (ms): the figure that does not depend on how much of the shared machine we got. */
  cpuMs: number;
  /** Redis script calls (EVALSHA/EVAL) per token, and Redis's time in them per token (µs; INFO commandstats). */
  redisCalls: number;
  redisUs: number;
}

const redisStats = new Redis(REDIS_URL, { lazyConnect: true });
/** Script calls and their µs so far, from Redis's INFO commandstats (the whole server: keep it otherwise idle). */
async function scriptStats(): Promise<{ calls: number; usec: number }> {
  const info = await redisStats.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const match of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)) {
    calls += Number(match[1]);
    usec += Number(match[2]);
  }
  return { calls, usec };
}

async function load(base: string, server: ChildProcess): Promise<Omit<Figures, 'label'>> {
  const options = tokenLoad(base, CONNECTIONS);
  await autocannon({ ...options, duration: 2 }); // warm-up (the app sits idle while the other scenarios run)
  const cpuBefore = cpuSeconds(server.pid);
  const scriptsBefore = await scriptStats();
  const result = await autocannon({ ...options, duration: DURATION });
  const cpuMs = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / result.requests.total;
  const scriptsAfter = await scriptStats();
  const redisCalls = (scriptsAfter.calls - scriptsBefore.calls) / result.requests.total;
  const redisUs = (scriptsAfter.usec - scriptsBefore.usec) / result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    cpuMs,
    redisCalls,
    redisUs,
  };
}

/**
 * Williams design: over a cycle of rounds each scenario runs once in each position and right after each other
 * scenario equally often, so neither "first after the raw run" nor "after the block run" favours one of them.
 * For an odd count the cycle is the n rows and their reverses.
 */
function williamsOrders(n: number): number[][] {
  const first = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i / 2 : n - (i + 1) / 2));
  const rows = Array.from({ length: n }, (_, r) => first.map((v) => (v + r) % n));
  return n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}
const inBalancedOrder = <T>(items: readonly T[], round: number): T[] => {
  const orders = williamsOrders(items.length);
  return orders[round % orders.length].map((i) => items[i]);
};

/**
 * The limiter call's own cost, in this process with nothing around it: CONNECTIONS callers each awaiting one
 * token-bucket script call after another for DURATION s (ioredis, as the app's RateLimiter sends it). Returns
 * the caller's CPU µs per call.
 */
async function limiterCallCost(prefix: string): Promise<{ calls: number; cpuUs: number }> {
  const redis = new Redis(REDIS_URL, { keyPrefix: `${prefix}:cost:` }) as Redis & {
    take(key: string, capacity: number, rate: number, count: number): Promise<unknown>;
  };
  redis.defineCommand('take', { numberOfKeys: 1, lua: TOKEN_BUCKET_TAKE });
  try {
    await redis.take('bucket', 1e9, 1e9, 1);
    let calls = 0;
    const until = Date.now() + DURATION * 1000;
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          await redis.take('bucket', 1e9, 1e9, 1);
          calls += 1;
        }
      }),
    );
    const cpu = process.cpuUsage(before);
    return { calls, cpuUs: (cpu.user + cpu.system) / calls };
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_mgmt_token');
  const prefix = benchRedisPrefix('bench:mgmt-token');
  try {
    const [appPort, rawPort, rawLimitedPort] = [await freePort(), await freePort(), await freePort()];
    const app = `http://127.0.0.1:${appPort}`;
    const raw = `http://127.0.0.1:${rawPort}`;
    const profile = process.argv.includes('--profile')
      ? [
          '--cpu-prof',
          '--cpu-prof-dir=/tmp/management-token-profile',
          '-r',
          './tools/bench/management/exit-on-sigterm.cjs',
        ]
      : [];
    const appProcess = startManagementApp(processes, profile, {
      ...managementAppEnv({ databaseUrl: database.url, redisPrefix: prefix }),
      PORT: String(appPort),
    });
    await waitUntil(async () => (await fetch(`${app}/health`)).status === 200, 'the management API');

    const first = (await (await requestToken(app)).json()) as {
      access_token: string;
      scope: string;
      expires_in: number;
    };
    const kid = (JSON.parse(Buffer.from(first.access_token.split('.')[0], 'base64url').toString()) as { kid: string })
      .kid;
    const rawEnv = {
      RAW_SIGN,
      CLIENT_ID,
      SECRET_DIGEST: createHmac('sha256', HMAC_KEY).update(CLIENT_SECRET).digest('hex'),
      HMAC_KEY,
      SIGNING_KEY,
      KID: kid,
      ISSUER: `${PUBLIC_URL}/`,
      AUDIENCE,
      SCOPE: first.scope,
      TTL: String(first.expires_in),
    };
    const rawProcess = start(['tools/bench/management-token/raw-token-server.mjs'], {
      ...rawEnv,
      PORT: String(rawPort),
    });
    await waitUntil(async () => (await requestToken(raw)).status === 200, 'the raw endpoint');
    // The same endpoint plus one call of the limiter's token-bucket script per token: the limiter's own cost.
    const rawLimited = `http://127.0.0.1:${rawLimitedPort}`;
    const rawLimitedProcess = start(['tools/bench/management-token/raw-token-server.mjs'], {
      ...rawEnv,
      PORT: String(rawLimitedPort),
      LIMITER_LUA: TOKEN_BUCKET_TAKE,
      REDIS_URL,
      REDIS_PREFIX: prefix,
    });
    await waitUntil(async () => (await requestToken(rawLimited)).status === 200, 'the raw endpoint with a limiter');

    const api = (path: string, method: string, body?: unknown) =>
      fetch(`${app}/api/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${first.access_token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const bucketLimit = async () => (await requestToken(app)).headers.get('x-ratelimit-limit');

    let policyId: string | undefined;
    /** Makes the bench client's own policy say `configuration`, and waits until the token endpoint shows it. */
    const setPolicy = async (configuration: { action: string; limit?: number }): Promise<void> => {
      if (!policyId) {
        // Created as a visible block policy first, so the moment every instance has it can be observed.
        const created = await api('/rate-limit-policies', 'POST', {
          resource: 'oauth_authentication_api',
          consumer: 'client',
          consumer_selector: `client_id:${CLIENT_ID}`,
          configuration: { action: 'block', limit: 10000 },
        });
        if (created.status !== 201) throw new Error(`creating the policy: ${created.status} ${await created.text()}`);
        policyId = ((await created.json()) as { id: string }).id;
        await waitUntil(async () => (await bucketLimit()) === '10000', 'the new policy');
      }
      await api(`/rate-limit-policies/${policyId}`, 'PATCH', { configuration });
      const expected = configuration.action === 'block' ? String(configuration.limit) : null;
      await waitUntil(async () => (await bucketLimit()) === expected, `the ${configuration.action} policy`);
    };
    const scenarios: Array<{ label: string; base: string; server: ChildProcess; setUp: () => Promise<void> }> = [
      {
        label: `raw node:http + node:crypto (${RAW_SIGN} sign)`,
        base: raw,
        server: rawProcess,
        setUp: async () => undefined,
      },
      {
        label: `raw + one limiter call per token (${RAW_SIGN} sign)`,
        base: rawLimited,
        server: rawLimitedProcess,
        setUp: async () => undefined,
      },
      {
        label: '/oauth/token, no policy',
        base: app,
        server: appProcess,
        setUp: async () => {
          if (!policyId) return;
          // Make the policy visible first, so its disappearance can be observed.
          await setPolicy({ action: 'block', limit: 10000 });
          await api(`/rate-limit-policies/${policyId}`, 'DELETE');
          policyId = undefined;
          await waitUntil(async () => (await bucketLimit()) === null, 'the deletion');
        },
      },
      {
        label: '/oauth/token, matching allow policy',
        base: app,
        server: appProcess,
        setUp: () => setPolicy({ action: 'allow' }),
      },
      {
        label: '/oauth/token, block 10000/s (never triggers)',
        base: app,
        server: appProcess,
        setUp: () => setPolicy({ action: 'block', limit: 10000 }),
      },
    ];
    const runs = new Map<string, Array<Omit<Figures, 'label'>>>(scenarios.map((s) => [s.label, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // A plain rotation made each scenario always follow the same one (the first app scenario after the raw
      // run found the app idle), which biased the comparison; see BALANCED_ORDERS.
      for (const scenario of inBalancedOrder(scenarios, round)) {
        await scenario.setUp();
        runs.get(scenario.label)?.push(await load(scenario.base, scenario.server));
      }
    }
    const figures: Figures[] = scenarios.map(({ label }) => {
      const list = runs.get(label) ?? [];
      return {
        label,
        rps: median(list.map((r) => r.rps)),
        p99: median(list.map((r) => r.p99)),
        errors: list.reduce((sum, r) => sum + r.errors, 0),
        cpuMs: median(list.map((r) => r.cpuMs)),
        redisCalls: median(list.map((r) => r.redisCalls)),
        redisUs: median(list.map((r) => r.redisUs)),
      };
    });

    const [rawFigures, rawLimitedFigures, none] = figures;
    const cost = await limiterCallCost(prefix);
    const block = figures[figures.length - 1];
    const extraCalls = block.redisCalls - none.redisCalls;
    // Paired: each scenario against the raw endpoint and the no-policy app of the same round (the shared VM's
    // speed drifts between rounds by ±30%, which cross-round medians do not cancel).
    const pairedMedian = (label: string, against: string) => {
      const mine = runs.get(label) ?? [];
      const base = runs.get(against) ?? [];
      const ratios = mine.map((r, i) => r.rps / base[i].rps);
      return {
        median: median(ratios),
        all: [...ratios]
          .sort((x, y) => x - y)
          .map((x) => x.toFixed(2))
          .join(', '),
      };
    };
    process.stdout.write(
      `\nPOST /oauth/token, ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${DURATION} s runs in balanced order (each after a 2 s warm-up)\n\n`,
    );
    process.stdout.write(
      `load average before: ${LOAD_BEFORE}; after: ${machineLine()}; ${new Date().toISOString()}\n\n`,
    );
    process.stdout.write(
      '| endpoint | tokens/s | p99 ms | non-2xx/errors | vs no policy | vs raw | server CPU ms/token | Redis scripts/token | Redis µs/token |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const f of figures) {
      process.stdout.write(
        `| ${f.label} | ${f.rps.toFixed(0)} | ${f.p99} | ${f.errors} | ${(f.rps / none.rps).toFixed(3)} | ${(f.rps / rawFigures.rps).toFixed(3)} | ${f.cpuMs.toFixed(3)} | ${f.redisCalls.toFixed(3)} | ${f.redisUs.toFixed(1)} |\n`,
      );
    }
    process.stdout.write('\nmedian of per-round ratios (tokens/s):\n');
    const limiterFloor = pairedMedian(rawLimitedFigures.label, rawFigures.label);
    process.stdout.write(
      `- ${rawLimitedFigures.label}: vs raw ${limiterFloor.median.toFixed(3)} (${limiterFloor.all}): the floor a limiter call before signing sets\n`,
    );
    process.stdout.write(
      `- the limiter call alone (${CONNECTIONS} callers in one process, ${cost.calls} calls): ${cost.cpuUs.toFixed(1)} µs of the caller's CPU per call; ` +
        `the block policy adds ${extraCalls.toFixed(3)} calls per token (coalesced), so its floor is ${((extraCalls * cost.cpuUs) / 1000).toFixed(4)} ms CPU per token, ` +
        `${(((extraCalls * cost.cpuUs) / 1000 / none.cpuMs) * 100).toFixed(1)} % of the no-policy token's ${none.cpuMs.toFixed(3)} ms\n`,
    );
    for (const f of figures.slice(2)) {
      const vsRaw = pairedMedian(f.label, rawFigures.label);
      const vsNone = pairedMedian(f.label, none.label);
      process.stdout.write(
        `- ${f.label}: vs raw ${vsRaw.median.toFixed(3)} (${vsRaw.all}); vs no policy ${vsNone.median.toFixed(3)} (${vsNone.all})\n`,
      );
    }
  } finally {
    await processes.stopAll();
    redisStats.disconnect();
    await database.drop();
    await deleteRedisPrefix(prefix);
  }
}

runBench(main);
