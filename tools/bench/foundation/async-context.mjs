// What the per-request log context costs by itself (libs/platform/observability RequestLogContext: one
// AsyncLocalStorage.run per request, then the request's promise chain), on whatever Node runs this script:
// a request-shaped unit of work (a chain of awaits, an I/O-like hop through setImmediate) run without, then with, an
// AsyncLocalStorage context entered per request, in one process. The rounds without come first: on Node 20 the
// first store entered installs promise hooks that every later promise of the process pays, context or not; Node 24+
// runs AsyncLocalStorage on AsyncContextFrame (no promise hooks).
//   node tools/bench/foundation/async-context.mjs [--requests 200000] [--rounds 7]
// Compare runtimes by running it under each (e.g. the machine's node and node_modules/.bin/node).
import { AsyncLocalStorage } from 'node:async_hooks';
import { loadavg } from 'node:os';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 200000);
const ROUNDS = arg('rounds', 7);
const storage = new AsyncLocalStorage();
const hop = () => new Promise((resolve) => setImmediate(resolve));

/** Guards, pipes, a handler with two queries, the response: about the awaits a Nest route makes. */
async function request(i) {
  let acc = i;
  for (let step = 0; step < 8; step++) acc += await Promise.resolve(step);
  await hop();
  acc += storage.getStore()?.id ?? 0;
  return acc;
}

async function batch(withContext) {
  const started = process.cpuUsage();
  const concurrency = 64;
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      if (withContext) await storage.run({ id: i }, () => request(i));
      else await request(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(started);
  return ((cpu.user + cpu.system) / REQUESTS) * 1000; // ns of CPU per request
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await batch(false); // warm-up, no context yet
const without = [];
for (let round = 0; round < ROUNDS; round++) without.push(await batch(false));
await batch(true); // warm-up with the context
const within = [];
for (let round = 0; round < ROUNDS; round++) within.push(await batch(true));
console.log(
  `node ${process.version}; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; ${REQUESTS} requests x ${ROUNDS} rounds each\n` +
    `CPU ns/request without context ${median(without).toFixed(0)} (rounds ${without.map((x) => x.toFixed(0)).join(', ')}); ` +
    `with ${median(within).toFixed(0)} (rounds ${within.map((x) => x.toFixed(0)).join(', ')}); ` +
    `the context costs ${(median(within) - median(without)).toFixed(0)} ns per request`,
);
