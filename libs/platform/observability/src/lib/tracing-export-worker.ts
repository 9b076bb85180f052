import { diag, type SpanContext, TraceFlags } from '@opentelemetry/api';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';

/**
 * The OTLP exporter on a worker thread (docs/operations.md, Tracing). On the event loop, encoding a batch of 512 spans
 * took 28 ms cold (2.7 ms warm) before the HTTP call, and that call ran through the Node stream and http functions
 * that serve requests, with other object shapes (V8 deoptimized the server path at each export). Here each span is
 * encoded to JSON when it ends (`SealedSpan`, about 3 µs) and a batch is posted as one buffer; the exporter the OTEL_*
 * variables choose runs in the worker, with those variables. The process spends about the same CPU in total; the event
 * loop does not.
 */

type Env = Record<string, string | undefined>;
type SpanExporter = NodeSDKConfiguration['traceExporter'];
type ReadableSpan = Parameters<SpanExporter['export']>[0][number];
type SpanProcessor = NonNullable<NodeSDKConfiguration['spanProcessors']>[number];
type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];

/** The exporter packages the SDK itself depends on, by OTLP protocol (OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL). */
const EXPORTER_BY_PROTOCOL: Record<string, string> = {
  'http/protobuf': '@opentelemetry/exporter-trace-otlp-proto',
  'http/json': '@opentelemetry/exporter-trace-otlp-http',
  grpc: '@opentelemetry/exporter-trace-otlp-grpc',
};
const WORKER_YOUNG_GENERATION_MB = 4;
/** ExportResultCode.FAILED of @opentelemetry/core. */
const FAILED = 1;

/** Its exporter package when the environment asks for OTLP (the default), else undefined (the SDK's own choice). */
export function otlpExporterPackage(env: Env): string | undefined {
  const exporters = env['OTEL_TRACES_EXPORTER']?.trim();
  if (exporters && exporters !== 'otlp') return undefined;
  const protocol = (
    env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ??
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] ??
    'http/protobuf'
  ).trim();
  return EXPORTER_BY_PROTOCOL[protocol];
}

/**
 * Plain JavaScript, not compiled with the lib: it runs as the worker's source. Packages resolve as the SDK's own
 * dependencies, from where the app's entry resolves @opentelemetry/sdk-node (webpack leaves both outside bundles).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const fromSdk = createRequire(createRequire(workerData.from).resolve('@opentelemetry/sdk-node'));
const exporter = new (fromSdk(workerData.exporter).OTLPTraceExporter)();
const stated = (context) => context && { ...context, traceState: context.traceState && { serialize: () => context.traceState } };
parentPort.on('message', ({ id, resources, resourceOf, spans }) => {
  const answer = (code, error) => parentPort.postMessage({ id, code, error: error && String(error) });
  if (spans === undefined) return void exporter.shutdown().then(() => answer(0), (error) => answer(1, error));
  const revived = JSON.parse(Buffer.from(spans).toString()).map(({ context, parentSpanContext, links, ...span }, index) => ({
    ...span,
    spanContext: () => stated(context),
    parentSpanContext: stated(parentSpanContext),
    links: links.map((link) => ({ ...link, context: stated(link.context) })),
    resource: resources[resourceOf[index]],
  }));
  exporter.export(revived, (result) => answer(result.code, result.error));
});
`;

/** A span context as JSON carries it: the trace state serialized (the worker gives it back `serialize`). */
const plainContext = (context: SpanContext | undefined) =>
  context && { ...context, traceState: context.traceState?.serialize() };

/**
 * An ended span as the batch processor holds it until its export: its exported fields already encoded, off the heap.
 * The processor holds a span up to `OTEL_BSP_SCHEDULE_DELAY` (5 s), past the two young-generation collections that
 * promote an object: held as the SDK's span it was copied twice and promoted, about 5 KB with its attributes, then
 * marked by each full collection (docs/operations.md, Tracing). The batch processor reads only its context's flags
 * and its resource (shared).
 */
export class SealedSpan {
  constructor(
    private readonly context: SpanContext,
    readonly resource: ReadableSpan['resource'],
    /** The span's fields but its resource, as UTF-8 JSON. */
    readonly json: Buffer,
  ) {}

  spanContext(): SpanContext {
    return this.context;
  }
}

export function sealSpan(span: ReadableSpan): SealedSpan {
  const context = span.spanContext();
  const fields = {
    name: span.name,
    kind: span.kind,
    context: plainContext(context),
    parentSpanContext: plainContext(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    attributes: span.attributes,
    status: span.status,
    events: span.events,
    links: span.links.map((link) => ({ ...link, context: plainContext(link.context) })),
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
    instrumentationScope: span.instrumentationScope,
  };
  return new SealedSpan(context, span.resource, Buffer.from(JSON.stringify(fields)));
}

/**
 * Hands each sampled span to the SDK's batch processor (OTEL_BSP_*) sealed at its end (`SealedSpan`), for
 * `WorkerSpanExporter`: the processor reads only a span's `spanContext()` and `resource`, which a sealed span keeps.
 */
export class SealingSpanProcessor implements SpanProcessor {
  constructor(private readonly batch: SpanProcessor) {}

  onStart(): void {
    // Nothing before a span ends.
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.batch.onEnd(sealSpan(span) as unknown as ReadableSpan);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.batch.shutdown();
  }
}

/** The SDK's span exporter interface; its BatchSpanProcessor (OTEL_BSP_*) decides when to call `export`. */
export class WorkerSpanExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private readonly drained: Array<() => void> = [];
  private lastId = 0;
  private failure: Error | undefined;

  /** `env`: the OTEL_* environment the exporter reads; `exporterPackage` from `otlpExporterPackage(env)`. */
  constructor(env: Env, exporterPackage: string) {
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const from = process.argv[1] ? resolve(process.argv[1]) : `${process.cwd()}/`;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env,
      workerData: { from, exporter: exporterPackage },
      // Not the services' 32 MB semi-space (tools/launcher/node-flags.json): a batch of 512 spans is about 0.2 MB.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    // Telemetry never keeps a process alive: shutdown() flushes what is pending before it ends.
    this.worker.unref();
    this.worker.on('message', ({ id, code, error }: { id: number; code: number; error?: string }) =>
      this.settle(id, { code, ...(error === undefined ? {} : { error: new Error(error) }) } as ExportResult),
    );
    const fail = (error: Error) => {
      // Said once, through the SDK's own diagnostics (OTEL_LOG_LEVEL): spans are dropped from here on.
      if (this.failure === undefined) diag.error('the span export worker stopped; spans are dropped', error);
      this.failure = error;
      for (const id of [...this.pending.keys()]) this.settle(id, { code: FAILED, error });
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(this.failure ?? new Error('the span export worker exited')));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.failure) return resultCallback({ code: FAILED, error: this.failure });
    const sealed = spans.map((span) => (span instanceof SealedSpan ? span : sealSpan(span)));
    const resources: ReadableSpan['resource'][] = [];
    const resourceOf = sealed.map(({ resource }) => {
      const index = resources.indexOf(resource);
      return index < 0 ? resources.push(resource) - 1 : index;
    });
    // One JSON array in a buffer of its own, handed over (transferred) rather than copied.
    const commas = Math.max(sealed.length - 1, 0);
    const array = Buffer.allocUnsafeSlow(sealed.reduce((length, span) => length + span.json.length, commas + 2));
    let offset = array.write('[');
    sealed.forEach((span, index) => {
      if (index > 0) offset += array.write(',', offset);
      offset += span.json.copy(array, offset);
    });
    array.write(']', offset);
    const id = this.awaitAnswer(resultCallback);
    this.worker.postMessage(
      {
        id,
        resources: resources.map(({ attributes, schemaUrl }) => ({ attributes, schemaUrl })),
        resourceOf,
        spans: array.buffer,
      },
      [array.buffer],
    );
  }

  /** Resolves once every export posted so far has been answered (sent, or failed). */
  forceFlush(): Promise<void> {
    return this.pending.size === 0 ? Promise.resolve() : new Promise((done) => this.drained.push(done));
  }

  async shutdown(): Promise<void> {
    if (!this.failure) {
      await this.forceFlush();
      await new Promise<void>((done) => this.worker.postMessage({ id: this.awaitAnswer(() => done()) }));
    }
    this.failure ??= new Error('the span exporter was shut down');
    await this.worker.terminate();
  }

  /** A new message id, whose answer from the worker (or its failure) calls `resultCallback`. */
  private awaitAnswer(resultCallback: (result: ExportResult) => void): number {
    this.lastId += 1;
    this.pending.set(this.lastId, resultCallback);
    return this.lastId;
  }

  private settle(id: number, result: ExportResult): void {
    const callback = this.pending.get(id);
    if (callback === undefined) return;
    this.pending.delete(id);
    callback(result);
    if (this.pending.size === 0) this.drained.splice(0).forEach((done) => done());
  }
}
