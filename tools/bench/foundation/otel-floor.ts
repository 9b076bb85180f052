/**
 * What the OpenTelemetry Node SDK costs by itself, apart from any app (docs/benchmarks/tracing-cost.md): the floor
 * under what tracing can cost a route.
 *  1. A bare node:http server (otel-floor-server.cjs) answering a device-sized JSON, CPU per request (every thread,
 *     from /proc): tracing off; the SDK with the http instrumentation alone and nothing sampled
 *     (`parentbased_always_off`, requests without `traceparent`); the same server with every tenth request, then
 *     every request, carrying a sampled `traceparent`. Spans are dropped at their end (a processor that keeps
 *     nothing, otel-floor-server.cjs), so no export is counted.
 *  2. The export of ended spans through this project's exporter (lib/tracing-export-worker.ts) to a local OTLP/HTTP
 *     sink, batches of --batch server spans with the http instrumentation's attributes: CPU per span on the main
 *     thread (the copy and the post) and on the export worker (revival, OTLP encoding, the HTTP call).
 *
 *   node -r @swc-node/register tools/bench/foundation/otel-floor.ts [--rounds 5] [--duration 10] [--rate 1000] [--batch 210] [--exports 20] [--gap 1000] [--export-only]
 *
 * `--gap` is the milliseconds between exports (the batch processor's default is 5000); `--export-only` skips part 1.
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { WorkerSpanExporter } from '../../../libs/platform/observability/src/lib/tracing-export-worker';
import { startOtlpSink } from '../support/otlp-sink';
import { cpuSeconds, freePort, numberArg } from '../support/processes';
import { machineLine, median } from '../support/report';

const ROUNDS = numberArg('rounds', 5);
const DURATION = numberArg('duration', 10);
const RATE = numberArg('rate', 1000);
const BATCH = numberArg('batch', 210);
const EXPORTS = numberArg('exports', 20);
const GAP_MS = numberArg('gap', 1000);
const SAMPLED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

async function startServer(trace: boolean): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = fork(resolve(__dirname, 'otel-floor-server.cjs'), {
    env: {
      ...process.env,
      PORT: String(port),
      OTEL_FLOOR_TRACE: trace ? '1' : '0',
      OTEL_TRACES_SAMPLER: 'parentbased_always_off',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    },
  });
  await once(child, 'message');
  return { child, port };
}

/**
 * µs of the server's CPU per request over one window of load. `sampled`: the share of requests carrying a sampled
 * `traceparent`, every 1/sampled-th request of each connection (0, 0.1 or 1).
 */
async function window(server: { child: ChildProcess; port: number }, sampled: number): Promise<number> {
  const before = cpuSeconds(server.child.pid);
  const every = sampled > 0 ? Math.round(1 / sampled) : 1;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/v6/project/push-notifications/devices`,
    method: 'POST',
    body: JSON.stringify({ token: 'x'.repeat(64), platform: 'ios' }),
    // A request's own headers replace the defaults whole, so each carries its content type.
    requests: Array.from({ length: every }, (_, i) => ({
      headers: { 'content-type': 'application/json', ...(sampled > 0 && i === 0 ? { traceparent: SAMPLED } : {}) },
    })),
    connections: 16,
    overallRate: RATE,
    duration: DURATION,
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${result.non2xx + result.errors} failed requests`);
  return ((cpuSeconds(server.child.pid) - before) * 1e6) / result.requests.total;
}

async function serverFloor(): Promise<void> {
  const off = await startServer(false);
  const on = await startServer(true);
  const variants = [
    { label: 'tracing off', server: off, sampled: 0 },
    { label: 'SDK + http instrumentation, nothing sampled', server: on, sampled: 0 },
    { label: 'SDK + http instrumentation, one request in ten sampled (spans dropped)', server: on, sampled: 0.1 },
    { label: 'SDK + http instrumentation, every request sampled (spans dropped)', server: on, sampled: 1 },
  ];
  for (const variant of variants) await window(variant.server, variant.sampled); // warm-up
  const figures = variants.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [index, variant] of variants.entries())
      figures[index].push(await window(variant.server, variant.sampled));
  off.child.kill();
  on.child.kill();
  const base = median(figures[0]);
  process.stdout.write(
    `\nbare node:http server, ${RATE} requests/s, 16 connections, ${ROUNDS} rounds of ${DURATION} s\n`,
  );
  process.stdout.write('| variant | CPU µs per request (median) | against off | rounds |\n|---|---:|---:|---|\n');
  for (const [index, variant] of variants.entries()) {
    const value = median(figures[index]);
    process.stdout.write(
      `| ${variant.label} | ${value.toFixed(1)} | +${(value - base).toFixed(1)} µs | ${figures[index].map((v) => v.toFixed(1)).join(', ')} |\n`,
    );
  }
}

async function exportCost(): Promise<void> {
  const { TracerProvider } = require('@opentelemetry/sdk-trace') as {
    TracerProvider: new (config: object) => { getTracer(name: string): import('@opentelemetry/api').Tracer };
  };
  const sink = await startOtlpSink();
  const exporter = new WorkerSpanExporter(
    { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
    '@opentelemetry/exporter-trace-otlp-proto',
  );
  const worker = (exporter as unknown as { worker: import('node:worker_threads').Worker }).worker;
  await once(worker, 'online');
  const ended: Parameters<WorkerSpanExporter['export']>[0] = [];
  const collect = {
    onStart: () => undefined,
    onEnd: (span: (typeof ended)[number]) => ended.push(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const tracer = new TracerProvider({ spanProcessors: [collect] }).getTracer('otel-floor');
  // The main thread's share is small against the clock's granularity (a jiffy), so it is summed over the exports.
  let mainMicros = 0;
  const inWorker: number[] = [];
  for (let round = 0; round <= EXPORTS; round += 1) {
    for (let i = 0; i < BATCH; i += 1)
      tracer
        .startSpan('POST /v6/:projectId/push-notifications/devices', { kind: 1, attributes: serverSpanAttributes(i) })
        .end();
    const spans = ended.splice(0);
    const workerBefore = await worker.cpuUsage();
    const mainBefore = process.threadCpuUsage();
    const done = new Promise((settled) => exporter.export(spans, settled));
    const mainUsed = process.threadCpuUsage(mainBefore);
    await done;
    const workerAfter = await worker.cpuUsage();
    // The first export loads the exporter's modules: not counted.
    if (round === 0) continue;
    mainMicros += mainUsed.user + mainUsed.system;
    inWorker.push((workerAfter.user - workerBefore.user + workerAfter.system - workerBefore.system) / BATCH);
    await new Promise((wait) => setTimeout(wait, GAP_MS));
  }
  await exporter.shutdown();
  sink.close();
  process.stdout.write(
    `\nexport, batches of ${BATCH} server spans, ${EXPORTS} exports after a first (module loading), ${GAP_MS} ms apart\n`,
  );
  process.stdout.write(`| thread | CPU µs per span | per export |\n|---|---:|---|\n`);
  process.stdout.write(`| main (copy, post) | ${(mainMicros / (BATCH * EXPORTS)).toFixed(1)} (all exports) | |\n`);
  process.stdout.write(
    `| export worker | ${median(inWorker).toFixed(1)} (median) | ${inWorker.map((v) => v.toFixed(1)).join(', ')} |\n`,
  );
}

/** The attributes the http instrumentation gives a server span. */
function serverSpanAttributes(i: number): Record<string, string | number> {
  return {
    'http.request.method': 'POST',
    'url.scheme': 'http',
    'url.path': '/v6/project/push-notifications/devices',
    'server.address': '127.0.0.1',
    'server.port': 3000,
    'client.address': '127.0.0.1',
    'network.peer.address': '127.0.0.1',
    'network.peer.port': 40000 + (i % 20000),
    'network.protocol.version': '1.1',
    'user_agent.original': 'autocannon',
    'http.route': '/v6/:projectId/push-notifications/devices',
    'http.response.status_code': 201,
  };
}

(async () => {
  process.stdout.write(`${machineLine()}\n`);
  if (!process.argv.includes('--export-only')) await serverFloor();
  await exportCost();
})().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
