import type { IncomingMessage } from 'node:http';

/**
 * OpenTelemetry tracing, off by default and configured by the standard OTEL_* variables only
 * (docs/operations.md, Tracing). Started by `@acme/platform-observability/tracing`, the first import of every app's
 * main.ts, so the instrumentations hook http, express, pg and ioredis before anything loads them. When off, nothing
 * of the SDK is required: its packages are webpack externals (tools/build/webpack.base.cjs), never loaded.
 */

type Env = Record<string, string | undefined>;

interface StartedSdk {
  shutdown(): Promise<void>;
}

let sdk: StartedSdk | undefined;

/** On when an exporter is named (endpoint or exporter list) and OTEL_SDK_DISABLED is not true. */
export function tracingRequested(env: Env = process.env): boolean {
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

/** Starts the Node SDK when OTEL_* asks for it; returns whether it did. Idempotent. */
export function startTracingFromEnv(env: Env = process.env): boolean {
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
  const started = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ? undefined : serviceNameFromEntry(),
    // Traces only: logs stay on stdout (pino, with trace_id/span_id), metrics on /metrics.
    logRecordProcessors: [],
    metricReaders: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.test(request.url ?? ''),
      }),
      // The route's handler only: a span per middleware layer (Nest mounts about ten) cost ~20 % of a token request.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      // Pollers (BullMQ's blocking reads, the reconciler, schedulers) would otherwise each start a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  started.start();
  sdk = started;
  return true;
}

/** Flushes and stops the SDK (at shutdown, after the server has drained); nothing when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
