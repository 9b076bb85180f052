import { Worker } from 'node:worker_threads';
import { ClientGrantService, ClientService } from '@acme/oauth';
import { EnforcementPolicyCache } from '@acme/policies';
import { waitFor } from '@acme/platform-testing';
import { AUDIENCE, ManagementApp, startManagement } from './support';

const LIMIT = 100;
const DURATION_MS = 10_000;
const WORKERS = 12;

/**
 * A `block` policy of 100/s under load spread over two instances for 10 s: the shared bucket admits its
 * burst (100) plus 100 per second, i.e. 1,100, and every refusal carries the OAuth 429 and its headers.
 */
describe('policy enforcement accuracy (block, limit 100, two instances, 10 s)', () => {
  let a: ManagementApp;
  let b: ManagementApp;

  beforeAll(async () => {
    a = await startManagement();
    b = await startManagement({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** One 10 s run against a fresh client and policy (so a fresh, full bucket). */
  async function measure(attempt: number) {
    const { client, clientSecret } = await a.app.get(ClientService).create({ name: `accuracy ${attempt}` });
    await a.app.get(ClientGrantService).create({ clientId: client.clientId, audience: AUDIENCE, scope: ['read:rate_limit_policies'] });
    const created = await a.api('/rate-limit-policies', {
      method: 'POST',
      body: { resource: 'oauth_authentication_api', consumer: 'client', consumer_selector: `client_id:${client.clientId}`, configuration: { action: 'block', limit: LIMIT } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await waitFor(() => [a, b].every((instance) => instance.app.get(EnforcementPolicyCache).current().size === 1), { what: 'the policy on both instances' });

    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret, audience: AUDIENCE });
    // The load runs on worker threads (not the servers' event loop); both start together once their threads are up.
    const start = Date.now() + 1000;
    const results = await Promise.all(
      [[a.url, b.url], [b.url, a.url]].map((urls) => runLoad({ urls, body, start, deadline: start + DURATION_MS, concurrency: WORKERS / 2, limit: LIMIT })),
    );
    expect((await a.api(`/rate-limit-policies/${id}`, { method: 'DELETE' })).status).toBe(204);
    await waitFor(() => [a, b].every((instance) => instance.app.get(EnforcementPolicyCache).current().size === 0), { what: 'the deletion' });
    const refusedBySecond = Array.from({ length: DURATION_MS / 1000 }, (_, i) => results.reduce((sum, r) => sum + (r.refusedBySecond[i] ?? 0), 0));
    return {
      accepted: results.reduce((sum, r) => sum + r.accepted, 0),
      refused: results.reduce((sum, r) => sum + r.refused, 0),
      problems: results.flatMap((r) => r.problems),
      // Over the limit throughout: the bucket ran dry in every second, so no refill was wasted.
      saturated: refusedBySecond.every((count) => count > 0),
    };
  }

  it('accepts within ±5% of 1,000 plus the burst, and every refusal is a correct 429', async () => {
    const allowed = LIMIT * (DURATION_MS / 1000) + LIMIT;
    // On a shared, loaded machine the load generator may fall under 100 req/s for a while; such a run says
    // nothing about the limiter, so it is repeated (at most three runs). The assertions never are.
    let run = await measure(1);
    for (let attempt = 2; !run.saturated && attempt <= 3; attempt += 1) {
      process.stdout.write(`accuracy: run ${attempt - 1} did not keep the load over the limit (${run.accepted} accepted, ${run.refused} refused); again\n`);
      run = await measure(attempt);
    }
    process.stdout.write(`accuracy: accepted ${run.accepted}, refused ${run.refused} in ${DURATION_MS / 1000} s (allowed ${allowed})\n`);
    expect(run.saturated).toBe(true);
    expect(run.problems).toEqual([]);
    expect(run.accepted).toBeGreaterThanOrEqual(Math.floor(allowed * 0.95));
    expect(run.accepted).toBeLessThanOrEqual(Math.ceil(allowed * 1.05));
  }, 120_000);
});

interface LoadResult {
  accepted: number;
  refused: number;
  refusedBySecond: number[];
  problems: string[];
}

/** Plain JS for a worker thread: loops of token requests until the deadline, checking every refusal. */
const LOAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, body, start, deadline, concurrency, limit } = workerData;
const result = { accepted: 0, refused: 0, refusedBySecond: [], problems: [] };
async function loop(url) {
  while (Date.now() < deadline) {
    const response = await fetch(url + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const payload = await response.json();
    if (response.status === 200 && typeof payload.access_token === 'string') { result.accepted += 1; continue; }
    result.refused += 1;
    const second = Math.floor((Date.now() - start) / 1000);
    result.refusedBySecond[second] = (result.refusedBySecond[second] || 0) + 1;
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
new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now())))
  .then(() => Promise.all(Array.from({ length: concurrency }, (_, i) => loop(urls[i % urls.length]))))
  .then(
  () => parentPort.postMessage(result),
  (error) => { result.problems.push(String(error)); parentPort.postMessage(result); },
);
`;

function runLoad(workerData: { urls: string[]; body: string; start: number; deadline: number; concurrency: number; limit: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_SCRIPT, { eval: true, workerData });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
