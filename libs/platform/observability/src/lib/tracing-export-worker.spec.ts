import { diag, DiagLogLevel } from '@opentelemetry/api';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  otlpExporterPackage,
  SealedSpan,
  SealingSpanProcessor,
  sealSpan,
  WorkerSpanExporter,
} from './tracing-export-worker';

type Span = Parameters<WorkerSpanExporter['export']>[0][number];
type Result = Parameters<Parameters<WorkerSpanExporter['export']>[1]>[0];

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const traced = (spanId: string) => ({
  traceId: TRACE_ID,
  spanId,
  traceFlags: 1,
  traceState: { serialize: () => 'vendor=abc' },
});

/** A span as the SDK hands it to an exporter: a method for its context, a class-like trace state, shared resource. */
function span(name: string, spanId: string, parentSpanId: string | undefined): Span {
  return {
    name,
    kind: 1,
    spanContext: () => traced(spanId),
    parentSpanContext: parentSpanId === undefined ? undefined : traced(parentSpanId),
    startTime: [1_700_000_000, 1_000],
    endTime: [1_700_000_000, 9_000],
    attributes: { 'http.request.method': 'POST', 'server.port': 3000 },
    status: { code: 0 },
    events: [{ name: 'retry', time: [1_700_000_000, 5_000], attributes: { attempt: 2 }, droppedAttributesCount: 0 }],
    links: [{ context: traced('00f067aa0ba902b7'), attributes: { job: 'slice' } }],
    duration: [0, 8_000],
    ended: true,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    instrumentationScope: { name: '@opentelemetry/instrumentation-http', version: '0.301.0' },
    resource: RESOURCE,
  } as unknown as Span;
}
const RESOURCE = { attributes: { 'service.name': 'management-api' }, schemaUrl: undefined };

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('the span exporter on a worker thread', () => {
  let server: Server;
  let url: string;
  let received: Received[];
  let status: number;
  const exporters: WorkerSpanExporter[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    received = [];
    status = 200;
  });
  afterEach(async () => {
    await Promise.all(exporters.splice(0).map((exporter) => exporter.shutdown()));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const exporter = (protocol: string) => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol };
    const created = new WorkerSpanExporter(env, otlpExporterPackage(env) as string);
    exporters.push(created);
    return created;
  };
  const exported = (target: WorkerSpanExporter, spans: Span[]) =>
    new Promise<Result>((resolve) => target.export(spans, resolve));

  it('chooses the SDK’s OTLP exporter package by protocol, and leaves any other exporter to the SDK', () => {
    expect(otlpExporterPackage({})).toBe('@opentelemetry/exporter-trace-otlp-proto');
    expect(otlpExporterPackage({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe(
      '@opentelemetry/exporter-trace-otlp-http',
    );
    expect(
      otlpExporterPackage({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }),
    ).toBe('@opentelemetry/exporter-trace-otlp-grpc');
    expect(otlpExporterPackage({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe('@opentelemetry/exporter-trace-otlp-proto');
    expect(otlpExporterPackage({ OTEL_TRACES_EXPORTER: 'console' })).toBeUndefined();
    expect(otlpExporterPackage({ OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' })).toBeUndefined();
  });

  const asHanded = (handed: Span) => handed;
  const sealed = (handed: Span) => sealSpan(handed) as unknown as Span;
  it.each([
    ['as the SDK hands them', asHanded, asHanded],
    ['sealed at their end', sealed, sealed],
    ['one sealed, one not', sealed, asHanded],
  ])(
    'delivers every field of the spans, %s, ids and parent links included, to the endpoint the environment names',
    async (_, first, second) => {
      const result = await exported(exporter('http/json'), [
        first(span('POST /oauth/token', 'b7ad6b7169203331', undefined)),
        second(span('EVALSHA', '53995c3f42cd8ad8', 'b7ad6b7169203331')),
      ]);
      expect(result.code).toBe(0);
      expect(received).toHaveLength(1);
      const { resourceSpans } = JSON.parse(received[0].body.toString());
      expect(resourceSpans).toHaveLength(1);
      expect(resourceSpans[0].resource.attributes).toEqual([
        { key: 'service.name', value: { stringValue: 'management-api' } },
      ]);
      const [scope] = resourceSpans[0].scopeSpans;
      expect(scope.scope).toMatchObject({ name: '@opentelemetry/instrumentation-http', version: '0.301.0' });
      const [root, child] = scope.spans;
      expect(root).toMatchObject({ traceId: TRACE_ID, spanId: 'b7ad6b7169203331', name: 'POST /oauth/token' });
      expect(root.parentSpanId).toBeUndefined();
      expect(child).toMatchObject({
        traceId: TRACE_ID,
        spanId: '53995c3f42cd8ad8',
        parentSpanId: 'b7ad6b7169203331',
        traceState: 'vendor=abc',
        kind: 2, // SERVER in OTLP's numbering
        startTimeUnixNano: '1700000000000001000',
        endTimeUnixNano: '1700000000000009000',
        attributes: [
          { key: 'http.request.method', value: { stringValue: 'POST' } },
          { key: 'server.port', value: { intValue: 3000 } },
        ],
        events: [{ name: 'retry', attributes: [{ key: 'attempt', value: { intValue: 2 } }] }],
        links: [{ traceId: TRACE_ID, spanId: '00f067aa0ba902b7', traceState: 'vendor=abc' }],
      });
    },
  );

  it('sends OTLP protobuf by default', async () => {
    const result = await exported(exporter('http/protobuf'), [span('GET /health', 'b7ad6b7169203331', undefined)]);
    expect(result.code).toBe(0);
    expect(received[0].headers['content-type']).toBe('application/x-protobuf');
    // The span name and the ids' bytes are in the encoded body.
    expect(received[0].body.includes(Buffer.from('GET /health'))).toBe(true);
    expect(received[0].body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
  });

  it('answers a refused export FAILED through the callback, and keeps exporting after it', async () => {
    const target = exporter('http/json');
    status = 400;
    const refused = await exported(target, [span('refused', 'b7ad6b7169203331', undefined)]);
    expect(refused.code).toBe(1);
    status = 200;
    expect((await exported(target, [span('accepted', 'b7ad6b7169203332', undefined)])).code).toBe(0);
  });

  it('says once through OTel diagnostics when the worker cannot run its exporter, and answers exports FAILED', async () => {
    const errors: unknown[][] = [];
    const log = (...args: unknown[]) => errors.push(args);
    diag.setLogger({ error: log, warn: log, info: log, debug: log, verbose: log }, DiagLogLevel.ERROR);
    try {
      const broken = new WorkerSpanExporter({ OTEL_EXPORTER_OTLP_ENDPOINT: url }, '@opentelemetry/no-such-exporter');
      exporters.push(broken);
      const first = await exported(broken, [span('lost', 'b7ad6b7169203331', undefined)]);
      const second = await exported(broken, [span('lost too', 'b7ad6b7169203332', undefined)]);
      expect([first.code, second.code]).toEqual([1, 1]);
      expect(String(second.error)).toMatch(/no-such-exporter/);
      expect(errors).toHaveLength(1);
      expect(errors[0][0]).toMatch(/span export worker stopped/);
      expect(received).toEqual([]);
    } finally {
      diag.disable();
    }
  });

  it('has sent what was exported before shutdown resolves, and answers exports after it FAILED', async () => {
    const target = exporter('http/json');
    const answered: Result[] = [];
    target.export([span('last', 'b7ad6b7169203331', undefined)], (result) => answered.push(result));
    await target.shutdown();
    expect(answered.map((result) => result.code)).toEqual([0]);
    expect(JSON.parse(received[0].body.toString()).resourceSpans[0].scopeSpans[0].spans[0].name).toBe('last');
    expect((await exported(target, [span('late', 'b7ad6b7169203332', undefined)])).code).toBe(1);
    expect(received).toHaveLength(1);
  });
});

describe('spans sealed at their end for the batch processor', () => {
  /** A batch processor that keeps what it is handed. */
  const recording = () => {
    const ended: unknown[] = [];
    const calls: string[] = [];
    const batch = {
      onStart: () => calls.push('start'),
      onEnd: (ended_: unknown) => ended.push(ended_),
      forceFlush: async () => void calls.push('flush'),
      shutdown: async () => void calls.push('shutdown'),
    };
    return { ended, calls, processor: new SealingSpanProcessor(batch as never) };
  };

  it('hands the batch processor a sealed copy of each sampled span, holding none of the span’s own objects', () => {
    const { ended, processor } = recording();
    const original = span('POST /oauth/token', 'b7ad6b7169203331', undefined);
    processor.onEnd(original);
    expect(ended).toHaveLength(1);
    const [handed] = ended as SealedSpan[];
    expect(handed).toBeInstanceOf(SealedSpan);
    // What the batch processor reads: the flags of its context, and the resource shared by every span.
    expect(handed.spanContext().traceFlags).toBe(1);
    expect(handed.resource).toBe(RESOURCE);
    // Nothing else of the SDK's span is kept alive by it until the export: its fields are bytes off the heap.
    const kept = Object.values(handed);
    for (const field of [original.attributes, original.events, original.links, original.status]) {
      expect(kept).not.toContain(field);
    }
    expect(JSON.parse(handed.json.toString())).toMatchObject({
      name: 'POST /oauth/token',
      attributes: original.attributes,
    });
  });

  it('drops a span that is not sampled, and passes flushes and shutdown on', async () => {
    const { ended, calls, processor } = recording();
    const unsampled = { ...span('GET /health', 'b7ad6b7169203331', undefined), spanContext: () => ({ traceFlags: 0 }) };
    processor.onStart();
    processor.onEnd(unsampled as unknown as Span);
    await processor.forceFlush();
    await processor.shutdown();
    expect(ended).toEqual([]);
    expect(calls).toEqual(['flush', 'shutdown']);
  });
});
