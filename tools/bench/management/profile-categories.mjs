// Groups a V8 .cpuprofile of the list benchmark's app (or raw handler) by what the time is spent on: the work
// the raw handler does too (pg, sockets, row mapping and JSON) against what only the framework stack adds.
//   node tools/bench/management/profile-categories.mjs <file.cpuprofile> [skip-seconds]
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const skip = Number(process.argv[3] ?? 0) * 1e6;
let t = 0;
const counts = new Map();
p.samples.forEach((s, i) => {
  t += p.timeDeltas[i];
  if (t >= skip) counts.set(s, (counts.get(s) ?? 0) + 1);
});
const cats = [
  [
    'shared floor: pg, postgres-date, pg-protocol, pg-pool',
    /\/(pg|pg-protocol|pg-pool|postgres-date|pg-types)\/|RegExp: \(\\d/,
  ],
  [
    'shared floor: socket writes, node http, buffers',
    /^(writev|writeUtf8String|utf8Slice|writevGeneric) |node:(_http|net|buffer|internal\/stream|stream)|^(slice|toString|getEncodingOps|write|FastBuffer) node/,
  ],
  [
    'shared floor: row mapping + JSON (app: from/serialize)',
    /rate-limit-policy\.(request|response)\.dto|serialize \/fastify|raw-list-server/,
  ],
  ['garbage collector', /garbage collector/],
  ['fastify (routing, hooks, reply)', /\/fastify\/|find-my-way|light-my-request|avvio/],
  ['@fastify/middie + Nest middleware', /middie|middleware-module|middleware/],
  ['Nest core (router, guards, pipes, interceptors)', /@nestjs\/core|rxjs|@nestjs\/platform-fastify|reflect-metadata/],
  [
    'validation (class-validator, class-transformer, pipe)',
    /class-validator|class-transformer|validation\.pipe|@nestjs\/common/,
  ],
  ['metrics (prom-client) + request log', /prom-client|metrics\.ts|logging\.module|pino/],
  [
    'limiter (ioredis, rate-limiter, coalesced takes)',
    /ioredis|rate-limit|coalesced|redis-parser|cluster-key-slot|denque/,
  ],
  ['auth (JWT cache, gate)', /management-auth|management-gate|scopes\.guard|platform\/auth/],
  ['app code (controller, service, repository, cursor)', /file:/],
];
const tally = new Map(cats.map(([n]) => [n, 0]));
tally.set('other (node internals, microtasks, events, program)', 0);
let total = 0;
for (const n of p.nodes) {
  const h = counts.get(n.id) ?? 0;
  if (!h || n.callFrame.functionName === '(idle)') continue;
  total += h;
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '/')}`;
  const hit = cats.find(([, re]) => re.test(key));
  const name = hit ? hit[0] : 'other (node internals, microtasks, events, program)';
  tally.set(name, tally.get(name) + h);
}
for (const [k, v] of tally) console.log(`| ${k} | ${((100 * v) / total).toFixed(1)}% |`);
console.log('samples', total);
