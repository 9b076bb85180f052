import type { IncomingMessage } from 'node:http';
import { type Context, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { edgeDraw } from './edge-draw';
import { createPoolContextInstrumentation } from './pool-context';
import { createContextManager, giveBindingSlots } from './tracing-context';
import { otlpExporterPackage, SealingSpanProcessor, WorkerSpanExporter } from './tracing-export-worker';

/**
 * OpenTelemetry tracing, off by default and configured by the standard OTEL_* variables only
 * (docs/operations.md, Tracing). Each app's src/tracing.ts, the first import of its main.ts, passes its environment
 * to `startTracingFromEnv` (imported from the light entry `@acme/platform-observability/tracing`), so the
 * instrumentations hook http, express, pg and ioredis before anything loads them. The lib reads no process.env.
 * When off, nothing of the SDK is required: its packages are webpack externals (tools/build/webpack.base.cjs).
 */

type Env = Record<string, string | undefined>;

interface StartedSdk {
  shutdown(): Promise<void>;
}

let sdk: StartedSdk | undefined;

/** On when an exporter is named (endpoint or exporter list) and OTEL_SDK_DISABLED is not true. */
export function tracingRequested(env: Env): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  const exporters = env['OTEL_TRACES_EXPORTER']?.trim();
  if (exporters === 'none') return false;
  return Boolean(exporters || env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
}

/** Whether this process runs the SDK (job processors open spans only then). */
export function tracingStarted(): boolean {
  return sdk !== undefined;
}

/** `apps/<name>/src/main.ts` or `dist/apps/<name>/main.js` → `<name>`: the service name when OTEL_SERVICE_NAME is unset. */
function serviceNameFromEntry(): string | undefined {
  return /apps[\\/]([^\\/]+)[\\/]/.exec(process.argv[1] ?? '')?.[1];
}

/** Probes and scrapes are not work worth a trace. */
const UNTRACED_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/** The root ratio of `OTEL_TRACES_SAMPLER` (parentbased_)traceidratio, or undefined for any other sampler. */
export function rootSamplingRatio(env: Env): number | undefined {
  const sampler = env['OTEL_TRACES_SAMPLER']?.trim();
  if (sampler !== 'traceidratio' && sampler !== 'parentbased_traceidratio') return undefined;
  const ratio = Number(env['OTEL_TRACES_SAMPLER_ARG'] ?? 1);
  return Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1;
}

/**
 * With a ratio sampler the root decision is taken before any instrumentation runs: an incoming request without
 * `traceparent` is left uninstrumented (no span, so pg and ioredis skip it too) unless it wins the draw, and the
 * SDK then samples what reaches it, following a parent's flag. The SDK's own ratio sampler would decide only after
 * the http instrumentation and the context manager had done their work for every request (+30 % CPU per token at
 * 10 %, docs/benchmarks/tracing-cost.md).
 */
function edgeSampler(ratio: number) {
  return {
    shouldSample: (active: Context, _traceId: string, _name: string, kind: SpanKind) => {
      const parent = trace.getSpanContext(active);
      // A server root already won the edge draw; any other root (a job without a carried context) draws here.
      const sampled = parent
        ? (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED
        : kind === SpanKind.SERVER || Math.random() < ratio;
      return { decision: sampled ? RECORD_AND_SAMPLED : NOT_RECORD };
    },
    toString: () => `ParentBased{root=drawn at the http edge, ratio ${ratio}}`,
  };
}
const NOT_RECORD = 0;
const RECORD_AND_SAMPLED = 2;

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
/**
 * Requests the bypass has drawn as traced, so the instrumentation's ignore hook does not draw again. A set, not a
 * property: a property only the traced tenth carries would give requests two shapes (see tracing-context.ts).
 */
const edgeTraced = new WeakSet<IncomingMessage>();

/**
 * Requests that are not traced (probes, roots that lost the draw) go straight to the server's own `emit`, around
 * the http instrumentation's. Its ignore hook would still run them in a `suppressTracing` context and bind that
 * context to the request and response emitters, wrapping every listener Fastify adds: about 2 of the 5 % of
 * main-thread samples tracing took in the token bench's CPU profile at 10 % (docs/benchmarks/tracing-cost.md).
 * Without a span nothing downstream traces them either: pg, ioredis and outgoing http all require a parent. The
 * same `emit` gives each new connection's socket its address fields
 * (`giveAddressFields`), and each request and response its context-binding slot (`giveBindingSlots`). Left out
 * where the instrumentation's wrapper is not found.
 */
function bypassInstrumentationFor(untraced: (request: IncomingMessage) => boolean): void {
  // Required after start(), so the instrumentation has wrapped Server.prototype.emit (shimmer keeps __original).
  // Literal ids: webpack resolves only those.
  const servers = [require('node:http'), require('node:https')] as Array<typeof import('node:http')>;
  for (const { Server } of servers) {
    const prototype = Server.prototype as { emit: Emit };
    const instrumented = prototype.emit as Emit & { __original?: Emit };
    const original = instrumented.__original;
    if (typeof original !== 'function') continue;
    prototype.emit = function emit(event, ...args) {
      if (event === 'connection') giveAddressFields(args[0] as object);
      if (event !== 'request') return instrumented.call(this, event, ...args);
      const request = args[0] as IncomingMessage;
      giveBindingSlots(request, args[1] as object);
      if (untraced(request)) return original.call(this, event, ...args);
      edgeTraced.add(request);
      return instrumented.call(this, event, ...args);
    };
  }
}

/**
 * The http instrumentation reads a traced request's remote address, and Node caches it on the socket as a property
 * added on first read (`_peername`; the local address likewise, `_sockname`). Only sockets that carried a traced
 * request got it, so Node's socket and stream code saw one more socket shape and went megamorphic for every request
 * (V8's IC log: the write path, `Socket._writeGeneric`; docs/operations.md, Tracing). Every server socket gets
 * both, empty, when it connects; Node fills them on first read as before. An https request's socket is the TLS
 * socket made after `connection`, so it is not covered (the services here take plain http behind a proxy).
 */
function giveAddressFields(socket: object): void {
  const fields = socket as { _peername?: unknown; _sockname?: unknown };
  if (!('_peername' in fields)) fields._peername = undefined;
  if (!('_sockname' in fields)) fields._sockname = undefined;
}

/** The instrumentations this lib sets up, by the names OTEL_NODE_(EN|DIS)ABLED_INSTRUMENTATIONS use. */
const INSTRUMENTATION_NAMES = ['http', 'express', 'pg', 'ioredis'] as const;
type InstrumentationName = (typeof INSTRUMENTATION_NAMES)[number];

/**
 * The instrumentations to run, read as OpenTelemetry's Node auto-instrumentations read them: the names without the
 * `@opentelemetry/instrumentation-` prefix, comma-separated; OTEL_NODE_ENABLED_INSTRUMENTATIONS keeps only those
 * named (all when unset), then OTEL_NODE_DISABLED_INSTRUMENTATIONS removes those it names. Unknown names are ignored.
 * Lets an operator trace less; on the device route it did not make tracing cheaper (docs/benchmarks/tracing-cost.md).
 */
export function selectedInstrumentations(env: Env): InstrumentationName[] {
  const names = (value: string | undefined) =>
    new Set(
      (value ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
  const enabled = names(env['OTEL_NODE_ENABLED_INSTRUMENTATIONS']);
  const disabled = names(env['OTEL_NODE_DISABLED_INSTRUMENTATIONS']);
  return INSTRUMENTATION_NAMES.filter((name) => (enabled.size === 0 || enabled.has(name)) && !disabled.has(name));
}

/** The SDK's batch processor as NodeSDK builds it from OTEL_BSP_*, fed sealed spans, exporting through the worker. */
function workerExport(env: Env, exporterPackage: string) {
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  // Positive numbers only, as NodeSDK reads them; anything else keeps the processor's default.
  const positive = (name: string) => {
    const value = Number(env[name]?.trim() || Number.NaN);
    return value > 0 ? value : undefined;
  };
  const batch = new BatchSpanProcessor({
    exporter: new WorkerSpanExporter(env, exporterPackage),
    maxQueueSize: positive('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: positive('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
    scheduledDelayMillis: positive('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: positive('OTEL_BSP_EXPORT_TIMEOUT'),
  });
  return new SealingSpanProcessor(batch);
}

/** Starts the Node SDK when OTEL_* asks for it; returns whether it did. Idempotent. */
export function startTracingFromEnv(env: Env): boolean {
  if (sdk) return true;
  if (!tracingRequested(env)) return false;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const ratio = rootSamplingRatio(env);
  // Drawn per slot of arrivals, so traced requests come in runs (lib/edge-draw.ts); each still has the ratio's chance.
  const drawn = ratio === undefined ? undefined : edgeDraw({ ratio });
  const unsampledRoot = (request: IncomingMessage) =>
    drawn !== undefined && request.headers['traceparent'] === undefined && !drawn();
  const untraced = (request: IncomingMessage) => UNTRACED_PATHS.test(request.url ?? '') || unsampledRoot(request);
  const exporterPackage = otlpExporterPackage(env);
  const instrumentations: Record<InstrumentationName, () => Instrumentation | Instrumentation[]> = {
    http: () =>
      new HttpInstrumentation({
        // Decided already when the edge bypass (below) passed the request on; this draws only without it.
        ignoreIncomingRequestHook: (request: IncomingMessage) => !edgeTraced.has(request) && untraced(request),
        // As pg and ioredis: a call made outside any trace (an unsampled request, a poller) opens none.
        requireParentforOutgoingSpans: true,
      }),
    // The route's handler only: a span per middleware layer (Nest mounts about ten) cost ~20 % of a token request.
    express: () =>
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    // Pollers (BullMQ's blocking reads, the reconciler, schedulers) would otherwise each start a trace of their own.
    // No pool-checkout spans: about a third of what a traced ingest cost (docs/benchmarks/tracing-cost.md); a pool
    // wait shows as the gap before a request's first query span, and in /metrics.
    // Then each pool checkout in its caller's context (lib/pool-context.ts): without it, queries joined other
    // requests' traces.
    pg: () => [
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      createPoolContextInstrumentation(),
    ],
    ioredis: () => new IORedisInstrumentation({ requireParentSpan: true }),
  };
  const started = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ? undefined : serviceNameFromEntry(),
    // OTLP (the default) is exported from a worker thread, each span sealed at its end; any other
    // OTEL_TRACES_EXPORTER is the SDK's own.
    ...(exporterPackage === undefined ? {} : { spanProcessors: [workerExport(env, exporterPackage)] }),
    ...(ratio === undefined ? {} : { sampler: edgeSampler(ratio) }),
    contextManager: createContextManager(),
    // Traces only: logs stay on stdout (pino, with trace_id/span_id), metrics on /metrics.
    logRecordProcessors: [],
    metricReaders: [],
    instrumentations: selectedInstrumentations(env).flatMap((name) => instrumentations[name]()),
  });
  started.start();
  bypassInstrumentationFor(untraced);
  sdk = started;
  return true;
}

/** Flushes and stops the SDK (at shutdown, after the server has drained); nothing when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
