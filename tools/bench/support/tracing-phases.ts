/**
 * What a traced request costs inside one process, apart from what loading the SDK costs (tracing-cost.ts compares
 * processes): one process with tracing on and nothing drawn at the edge (ratio 0), loaded in phases back to back
 * where none, a tenth (every tenth request, or `runs`: 64 in a row of every 640, as the edge's slots trace at 10 %)
 * or all of the requests carry a sampled `traceparent`, so the SDK traces exactly those. Two processes of the same
 * code differ by several percent (tracing-cost.ts); phases of one process share its JIT state and memory layout.
 *
 *   ... bench-tracing.ts --phases [none,tenth,runs,all] [--rounds 4] [--duration 15] [--warmup 45] [--connections 16] [--rate N]
 *
 * Reports CPU per request by thread per phase, and per kind the mean over rounds and its ratio to `none`. The
 * difference between `tenth` and a tenth of `all`'s is what traced requests cost for being rare.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { EDGE_SLOT_REQUESTS } from '../../../libs/platform/observability/src/lib/edge-draw';
import { sampledTracingEnv } from './otlp-sink';
import { numberArg, threadCpuSeconds } from './processes';
import { mean } from './report';
import { BENCH_NODE_ARGS, runTracedRoute, startHealthy, type TracedRoute } from './traced-route';

const DURATION = numberArg('duration', 15);
const WARMUP = numberArg('warmup', 45);
const ROUNDS = numberArg('rounds', 4);
const CONNECTIONS = numberArg('connections', 16);
const RATE = numberArg('rate', 0);
const listed = process.argv[process.argv.indexOf('--phases') + 1];
const PHASES = (listed && !listed.startsWith('--') ? listed : 'none,tenth,all').split(',');
/** Requests in a row in `runs`: the edge's cap on a slot. */
const RUN = EDGE_SLOT_REQUESTS;
/** Which requests carry a sampled traceparent, by their count from 0. */
const TRACED: Record<string, (sent: number) => boolean> = {
  none: () => false,
  tenth: (sent) => sent % 10 === 9,
  runs: (sent) => sent % (10 * RUN) < RUN,
  all: () => true,
};

const traceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

/** The route's load with a sampled `traceparent` on the requests `traced` picks. */
function tracedWhere(options: autocannon.Options, traced: (sent: number) => boolean): autocannon.Options {
  let sent = 0;
  const requests = options.requests ?? [{ method: options.method, headers: options.headers, body: options.body }];
  return {
    ...options,
    requests: requests.map((request) => ({
      ...request,
      setupRequest: (next: autocannon.Request, context: object) => {
        const built = typeof request.setupRequest === 'function' ? request.setupRequest(next, context) : next;
        sent += 1;
        if (!traced(sent - 1)) return built;
        return { ...built, headers: { ...(built.headers ?? options.headers), traceparent: traceparent() } };
      },
    })),
  };
}

export function benchTracingPhases(route: TracedRoute): void {
  if (PHASES.some((phase) => !(phase in TRACED))) throw new Error(`--phases takes ${Object.keys(TRACED).join(', ')}`);
  runTracedRoute(route, 'phases', async ({ databaseUrl, sink, processes, env }) => {
    const { server, url } = await startHealthy(route, processes, BENCH_NODE_ARGS, {
      ...env,
      ...sampledTracingEnv(sink.url, '0'),
    });
    await route.prepare?.({ url, databaseUrl });
    const run = async (phase: string, duration: number) => {
      const options = tracedWhere(route.load(url, CONNECTIONS), TRACED[phase]);
      const before = threadCpuSeconds(server.pid as number);
      const result = await autocannon({ ...options, duration, ...(RATE > 0 ? { overallRate: RATE } : {}) });
      const after = threadCpuSeconds(server.pid as number);
      const ms = (group: string) => (((after[group] ?? 0) - (before[group] ?? 0)) * 1000) / result.requests.total;
      const groups = Object.keys(after).sort();
      const cpuMs = groups.reduce((sum, group) => sum + ms(group), 0);
      process.stdout.write(
        `${phase}: CPU ms/request ${cpuMs.toFixed(3)} (${groups.map((g) => `${g} ${ms(g).toFixed(3)}`).join(', ')}), ` +
          `${result.requests.total} requests, ${result.non2xx + result.errors} errors\n`,
      );
      return cpuMs;
    };
    // Warmed with a tenth traced, so neither path is cold when the phases start.
    await run('tenth', WARMUP);
    const measured = new Map<string, number[]>(PHASES.map((phase) => [phase, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const phase of PHASES) measured.get(phase)?.push(await run(phase, DURATION));
    }
    const none = measured.has('none') ? mean(measured.get('none') ?? []) : undefined;
    process.stdout.write(
      `\n${route.title}, ${CONNECTIONS} connections${RATE > 0 ? ` at ${RATE} requests/s` : ''}; one process, ` +
        `${ROUNDS} rounds of ${PHASES.join(', ')} (${DURATION} s each) after ${WARMUP} s; ${new Date().toISOString()}\n`,
    );
    for (const [phase, values] of measured) {
      const cpuMs = mean(values);
      process.stdout.write(
        `| ${phase} | ${cpuMs.toFixed(3)} ms | ${none === undefined ? '' : `**${(cpuMs / none).toFixed(3)}** × none`} | ` +
          `${values.map((v) => v.toFixed(3)).join(', ')} |\n`,
      );
    }
  });
}
