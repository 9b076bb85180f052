import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ClientGrantService, ClientService } from '@acme/oauth';
import { waitFor } from '@acme/platform-testing';
import { AUDIENCE, ManagementApp, startManagement } from './support';
import type { TestApp } from '@acme/platform-testing';

const LIMIT = 100;
const DURATION_MS = 10_000;
const WORKERS = 12;
/** Refill the load may leave unused (a bucket standing full) for a run to count: 1% of the allowance. */
const MAX_WASTED_TOKENS = 11;
/** How long unsaturated runs may be repeated. */
const RETRY_BUDGET_MS = 90_000;

/**
 * Upper bound of the refill lost while the bucket stood full, from what the responses reported: the bucket
 * is full only after a lull, and the next response then shows `remaining = limit - 1`. A late first request
 * loses the time before it too.
 */
function wastedRefill(observations: Array<[number, number]>, start: number): number {
  const sorted = [...observations].sort((x, y) => x[0] - y[0]);
  if (sorted.length === 0) return Infinity;
  let wasted = Math.max(0, ((sorted[0][0] - start) * LIMIT) / 1000 - 1);
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i][1] >= LIMIT - 1) wasted += Math.max(0, ((sorted[i][0] - sorted[i - 1][0]) * LIMIT) / 1000 - 1);
  }
  return wasted;
}

/**
 * A `block` policy of 100/s under load spread over two instances for 10 s: the shared bucket admits its
 * burst (100) plus 100 per second, i.e. 1,100, and every refusal carries the OAuth 429 and its headers.
 */
describe('policy enforcement accuracy (block, limit 100, two instances, 10 s)', () => {
  // `control` (this thread) provisions clients and policies; the two instances under load run on their own
  // worker threads, on the same database and Redis prefix, so servers and load generators do not share one
  // event loop on a busy 2-core machine.
  let control: ManagementApp;
  let servers: ServingInstance[] = [];

  beforeAll(async () => {
    control = await startManagement();
    servers = await Promise.all([startServingInstance(control), startServingInstance(control)]);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await control?.close();
  });

  /** One 10 s run against a fresh client and policy (so a fresh, full bucket). */
  async function measure(attempt: number) {
    const { client, clientSecret } = await control.app.get(ClientService).create({ name: `accuracy ${attempt}` });
    await control.app
      .get(ClientGrantService)
      .create({ clientId: client.clientId, audience: AUDIENCE, scope: ['read:rate_limit_policies'] });
    const created = await control.api('/rate-limit-policies', {
      method: 'POST',
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: `client_id:${client.clientId}`,
        configuration: { action: 'block', limit: LIMIT },
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await waitFor(
      async () => (await Promise.all(servers.map((server) => server.cachedPolicies()))).every((size) => size === 1),
      { what: 'the policy on both instances' },
    );

    const body = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret,
      audience: AUDIENCE,
    });
    // The load runs on worker threads (not the servers' event loop); both start together once their threads are up.
    const start = Date.now() + 1000;
    const results = await Promise.all(
      [
        [servers[0].url, servers[1].url],
        [servers[1].url, servers[0].url],
      ].map((urls) =>
        runLoad({ urls, body, start, deadline: start + DURATION_MS, concurrency: WORKERS / 2, limit: LIMIT }),
      ),
    );
    expect((await control.api(`/rate-limit-policies/${id}`, { method: 'DELETE' })).status).toBe(204);
    await waitFor(
      async () => (await Promise.all(servers.map((server) => server.cachedPolicies()))).every((size) => size === 0),
      { what: 'the deletion' },
    );
    const wasted = wastedRefill(
      results.flatMap((r) => r.observations),
      start,
    );
    const accepted = results.reduce((sum, r) => sum + r.accepted, 0);
    const refused = results.reduce((sum, r) => sum + r.refused, 0);
    return {
      accepted,
      refused,
      problems: results.flatMap((r) => r.problems),
      wasted,
      // The load stayed well over the limit and kept the bucket from standing full: (almost) no refill was
      // lost to a lull in the load.
      saturated: refused >= accepted / 10 && wasted <= MAX_WASTED_TOKENS,
    };
  }

  it(
    'accepts within ±5% of 1,000 plus the burst, and every refusal is a correct 429',
    async () => {
      const allowed = LIMIT * (DURATION_MS / 1000) + LIMIT;
      // On a shared, loaded machine (other test files running beside this one) the load may fall under
      // 100 req/s for a while; such a run says nothing about the limiter, so it is repeated, within a time
      // budget, until one run keeps the load over the limit. The assertions are never retried.
      const budgetEnds = Date.now() + RETRY_BUDGET_MS;
      let run = await measure(1);
      for (let attempt = 2; !run.saturated && Date.now() < budgetEnds; attempt += 1) {
        process.stdout.write(
          `accuracy: run ${attempt - 1} did not keep the load over the limit (${run.accepted} accepted, ${run.refused} refused, ~${run.wasted.toFixed(0)} tokens of refill unused); again\n`,
        );
        run = await measure(attempt);
      }
      process.stdout.write(
        `accuracy: accepted ${run.accepted}, refused ${run.refused} in ${DURATION_MS / 1000} s (allowed ${allowed}, ~${run.wasted.toFixed(1)} tokens of refill unused)\n`,
      );
      expect(run.saturated).toBe(true);
      expect(run.problems).toEqual([]);
      expect(run.accepted).toBeGreaterThanOrEqual(Math.floor(allowed * 0.95));
      expect(run.accepted).toBeLessThanOrEqual(Math.ceil(allowed * 1.05));
    },
    RETRY_BUDGET_MS + 60_000,
  );
});

interface LoadResult {
  accepted: number;
  refused: number;
  /** [response time ms, X-RateLimit-Remaining] of every response. */
  observations: Array<[number, number]>;
  problems: string[];
}

/** Plain JS for a worker thread: loops of token requests until the deadline, checking every refusal. */
const LOAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, body, start, deadline, concurrency, limit } = workerData;
const result = { accepted: 0, refused: 0, observations: [], problems: [] };
async function loop(url) {
  while (Date.now() < deadline) {
    const response = await fetch(url + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const payload = await response.json();
    result.observations.push([Date.now(), Number(response.headers.get('x-ratelimit-remaining'))]);
    if (response.status === 200 && typeof payload.access_token === 'string') { result.accepted += 1; continue; }
    result.refused += 1;
    const now = Math.floor(Date.now() / 1000);
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const retryAfter = Number(response.headers.get('retry-after'));
    const correct = response.status === 429 && payload.error === 'too_many_requests' && typeof payload.error_description === 'string'
      && response.headers.get('x-ratelimit-limit') === String(limit) && response.headers.get('x-ratelimit-remaining') === '0'
      && reset >= now - 1 && reset <= now + 3 && retryAfter >= 1 && retryAfter <= 2;
    if (!correct && result.problems.length < 5) {
      result.problems.push(response.status + ' ' + JSON.stringify(payload) + ' ' + JSON.stringify(Object.fromEntries(response.headers)));
    }
  }
}
// Warm up before the start (fetch's first use in a thread, one open connection per loop): otherwise the first
// responses come late, and the refill lost meanwhile while the bucket stands full makes the run not count.
const warmUp = () => Promise.all(Array.from({ length: concurrency }, (_, i) => fetch(urls[i % urls.length] + '/.well-known/jwks.json').then((r) => r.arrayBuffer())));
warmUp()
  .then(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now()))))
  .then(() => Promise.all(Array.from({ length: concurrency }, (_, i) => loop(urls[i % urls.length]))))
  .then(
  () => parentPort.postMessage(result),
  (error) => { result.problems.push(String(error)); parentPort.postMessage(result); },
);
`;

function runLoad(workerData: {
  urls: string[];
  body: string;
  start: number;
  deadline: number;
  concurrency: number;
  limit: number;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_SCRIPT, { eval: true, workerData });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

interface ServingInstance {
  url: string;
  /** How many policies the instance has cached (to line up a run, never to decide one). */
  cachedPolicies(): Promise<number>;
  close(): Promise<void>;
}

/** Plain JS for a worker thread: one more instance of the app (TypeScript through @swc-node/register). */
const INSTANCE_SCRIPT = `
require(require('node:worker_threads').workerData.register);
const { parentPort, workerData } = require('node:worker_threads');
const { startManagement } = require(workerData.support);
const { EnforcementPolicyCache } = require(workerData.policies);
startManagement({ shareWith: workerData.shared }).then((app) => {
  parentPort.on('message', (message) => {
    if (message === 'size') parentPort.postMessage({ size: app.app.get(EnforcementPolicyCache).current().size });
    if (message === 'close') app.close().then(() => parentPort.postMessage({ closed: true }));
  });
  parentPort.postMessage({ url: app.url });
});
`;

function startServingInstance(shared: TestApp): Promise<ServingInstance> {
  const worker = new Worker(INSTANCE_SCRIPT, {
    eval: true,
    env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '..', '..', '..', 'tsconfig.json') },
    workerData: {
      register: require.resolve('@swc-node/register'),
      support: join(__dirname, 'support.ts'),
      // Path aliases are rewritten only inside compiled TypeScript; plain JS names the lib's entry file.
      policies: join(__dirname, '..', '..', '..', 'libs', 'policies', 'src', 'index.ts'),
      shared: { database: { name: shared.database.name, url: shared.database.url }, redisPrefix: shared.redisPrefix },
    },
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(message[key] as T);
      };
      worker.on('message', onMessage);
      worker.on('error', reject);
    });
  return next<string>('url').then((url) => ({
    url,
    cachedPolicies: () => {
      const size = next<number>('size');
      worker.postMessage('size');
      return size;
    },
    close: async () => {
      const closed = next<boolean>('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  }));
}
