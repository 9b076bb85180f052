import { relative, sep } from 'node:path';
import { inFreshNode, OTLP_RECEIVER_SCRIPT, WORKSPACE_ROOT as ROOT } from '../../test/fresh-node';
import { rootSamplingRatio, selectedInstrumentations, tracingRequested } from './tracing';

const SDK_MODULE = /@opentelemetry[\\/]sdk-/;

/**
 * Loads the light entry in a fresh Node, then, when `start` is set, calls startTracingFromEnv(process.env) as every
 * app's src/tracing.ts does; lists the modules Node's loader then holds.
 */
function modulesAfterEntry(env: Record<string, string>, start = true): string[] {
  const script =
    "const entry = require('./libs/platform/observability/src/tracing.ts');" +
    (start ? 'entry.startTracingFromEnv(process.env);' : '') +
    'process.stdout.write(JSON.stringify(Object.keys(require.cache)));';
  return JSON.parse(inFreshNode(script, env)) as string[];
}
const sdkModulesAfterEntry = (env: Record<string, string>) =>
  modulesAfterEntry(env).filter((id) => SDK_MODULE.test(id));

describe('tracingRequested', () => {
  it('is off without OTEL_* and when the SDK is disabled or the exporter is none', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('is on when an endpoint or an exporter is named', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });
});

describe('rootSamplingRatio (the edge draw of a ratio sampler)', () => {
  it('reads the ratio of traceidratio samplers, clamped, and nothing for other samplers', () => {
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toBe(
      0.1,
    );
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'x' })).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(rootSamplingRatio({})).toBeUndefined();
  });
});

describe('selectedInstrumentations (OTEL_NODE_ENABLED_INSTRUMENTATIONS, OTEL_NODE_DISABLED_INSTRUMENTATIONS)', () => {
  const selected = selectedInstrumentations;

  it('runs all four by default, keeps only the enabled ones, then removes the disabled ones', () => {
    expect(selected({})).toEqual(['http', 'express', 'pg', 'ioredis']);
    expect(selected({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: ' pg, http ' })).toEqual(['http', 'pg']);
    expect(selected({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg,express' })).toEqual(['http', 'ioredis']);
    expect(
      selected({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg', OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' }),
    ).toEqual(['http']);
  });

  it('ignores names it does not run and empty entries', () => {
    expect(selected({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'fs,,dns' })).toEqual(['http', 'express', 'pg', 'ioredis']);
    expect(selected({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'fs,http' })).toEqual(['http']);
  });

  it('leaves a disabled library unpatched in a started SDK', () => {
    const script = `
      require('./libs/platform/observability/src/lib/tracing.ts').startTracingFromEnv(process.env);
      const wrapped = (fn) => Boolean(fn.__wrapped);
      process.stdout.write(JSON.stringify({
        pg: wrapped(require('pg').Client.prototype.query),
        // Unpatched, http.Server inherits EventEmitter's emit.
        http: Object.hasOwn(require('node:http').Server.prototype, 'emit'),
      }));`;
    const run = (extra: Record<string, string>) =>
      JSON.parse(inFreshNode(script, { OTEL_TRACES_EXPORTER: 'console', ...extra })) as Record<string, boolean>;
    expect(run({})).toEqual({ pg: true, http: true });
    expect(run({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' })).toEqual({ pg: false, http: true });
    expect(run({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' })).toEqual({ pg: true, http: false });
  }, 60_000);
});

/** Tracing on with a ratio of 0: the edge draws no root, and a caller's sampled `traceparent` is followed. */
const NOTHING_DRAWN = {
  OTEL_TRACES_EXPORTER: 'console',
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '0',
};

/** In a fresh Node with a ratio of 0: what an unsampled root and a sampled child of a caller's trace see. */
function edgeRun(): { unsampled: string; sampled: string } {
  const script = `
    const { context, trace } = require('@opentelemetry/api');
    const { isTracingSuppressed } = require('@opentelemetry/core');
    require('./libs/platform/observability/src/lib/tracing.ts').startTracingFromEnv(process.env);
    const seen = (active) =>
      trace.getSpan(active)?.isRecording() ? 'span' : isTracingSuppressed(active) ? 'suppressed' : 'nothing';
    const server = require('node:http')
      .createServer((request, response) => response.end(seen(context.active())))
      .listen(0, async () => {
        const url = 'http://127.0.0.1:' + server.address().port + '/x';
        const unsampled = await (await fetch(url)).text();
        const traceparent = '00-' + '1'.repeat(32) + '-' + '2'.repeat(16) + '-01';
        const sampled = await (await fetch(url, { headers: { traceparent } })).text();
        process.stdout.write(JSON.stringify({ unsampled, sampled }));
        process.exit(0);
      });`;
  const stdout = inFreshNode(script, NOTHING_DRAWN);
  return JSON.parse(stdout.slice(stdout.lastIndexOf('{"unsampled"'))) as { unsampled: string; sampled: string };
}

type ExchangeKeys = Record<'socket' | 'request' | 'response', string[]>;

/**
 * In a fresh Node with a ratio of 0: the own keys of each server socket, request and response once an untraced, then
 * a traced request is answered.
 */
function exchangeKeysRun(): ExchangeKeys[] {
  const script = `
    require('./libs/platform/observability/src/lib/tracing.ts').startTracingFromEnv(process.env);
    const http = require('node:http');
    const keys = [];
    const server = http
      .createServer((request, response) => {
        const own = (object) => Reflect.ownKeys(object).map(String);
        response.on('finish', () =>
          keys.push({ socket: own(request.socket), request: own(request), response: own(response) }));
        response.end('ok');
      })
      .listen(0, async () => {
        const get = (headers) => new Promise((done) =>
          http.get({ port: server.address().port, path: '/x', agent: false, headers }, (r) => r.resume().on('end', done)));
        await get({});
        await get({ traceparent: '00-' + '1'.repeat(32) + '-' + '2'.repeat(16) + '-01' });
        process.stdout.write(JSON.stringify(keys));
        process.exit(0);
      });`;
  const stdout = inFreshNode(script, NOTHING_DRAWN);
  return JSON.parse(stdout.slice(stdout.lastIndexOf('[{'))) as ExchangeKeys[];
}

describe('the edge decision with a ratio sampler', () => {
  let keysRun: ExchangeKeys[] | undefined;
  /** One fresh Node for both shape tests. */
  const exchangeKeys = () => (keysRun ??= exchangeKeysRun());

  it("hands an unsampled root straight to the server (no suppressing context to bind), and follows a caller's flag", () => {
    expect(edgeRun()).toEqual({ unsampled: 'nothing', sampled: 'span' });
  }, 60_000);

  it("keeps one socket shape: a traced request's address reads add no property its socket lacked", () => {
    const [untraced, traced] = exchangeKeys();
    expect(traced.socket).toContain('_peername');
    expect(traced.socket).toEqual(untraced.socket);
  }, 60_000);

  it('keeps one request and one response shape: a traced exchange holds its context binding in a slot every exchange has', () => {
    const [untraced, traced] = exchangeKeys();
    expect(traced.request).toContain('Symbol(otel binding)');
    expect(traced.response).toContain('Symbol(otel binding)');
    expect(traced.request).toEqual(untraced.request);
    expect(traced.response).toEqual(untraced.response);
  }, 60_000);
});

describe('the tracing entry', () => {
  it('requires no @opentelemetry/sdk-* module when OTEL_* is unset', () => {
    expect(sdkModulesAfterEntry({})).toEqual([]);
  }, 60_000);

  it('has no side effect and loads no other file of the workspace than lib/tracing, its edge draw, pool context, context manager and exporter', () => {
    const modules = modulesAfterEntry({ OTEL_TRACES_EXPORTER: 'console' }, false);
    expect(modules.filter((id) => SDK_MODULE.test(id))).toEqual([]);
    const workspaceFiles = modules
      .filter((id) => id.startsWith(ROOT) && !id.includes(`${sep}node_modules${sep}`))
      .map((id) => relative(ROOT, id).split(sep).join('/'));
    expect(workspaceFiles.sort()).toEqual([
      'libs/platform/observability/src/lib/edge-draw.ts',
      'libs/platform/observability/src/lib/pool-context.ts',
      'libs/platform/observability/src/lib/tracing-context.ts',
      'libs/platform/observability/src/lib/tracing-export-worker.ts',
      'libs/platform/observability/src/lib/tracing.ts',
      'libs/platform/observability/src/tracing.ts',
    ]);
  }, 60_000);

  it('starts the Node SDK when an exporter is named', () => {
    // console exporter: nothing to reach; OTEL_SDK_DISABLED is not set.
    expect(sdkModulesAfterEntry({ OTEL_TRACES_EXPORTER: 'console' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/@opentelemetry[\\/]sdk-node[\\/]/)]),
    );
  }, 60_000);
});

/**
 * In a fresh Node with OTLP/JSON to a receiver of its own: the span names of each export received once three spans
 * have ended, until all three have arrived or `withinMs` has passed (the default batch processor holds them for 5 s).
 */
function batchesRun(env: Record<string, string>, withinMs: number): string[][] {
  const script = `${OTLP_RECEIVER_SCRIPT}
    withReceiver(() => {
      require('./libs/platform/observability/src/lib/tracing.ts').startTracingFromEnv(process.env);
      const tracer = require('@opentelemetry/api').trace.getTracer('test');
      for (const name of ['one', 'two', 'three']) tracer.startSpan(name).end();
      const names = (body) => spansOf([body]).map((span) => span.name);
      const ended = Date.now();
      const poll = setInterval(() => {
        if (bodies.flatMap(names).length < 3 && Date.now() - ended < ${withinMs}) return;
        clearInterval(poll);
        process.stdout.write('batches:' + JSON.stringify(bodies.map(names)));
        process.exit(0);
      }, 20);
    });`;
  const stdout = inFreshNode(script, {
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Not http: the receiver's own requests would be traced and exported in turn.
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg',
    ...env,
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('batches:') + 'batches:'.length)) as string[][];
}

describe('the batch processor in front of the export worker (OTEL_BSP_*)', () => {
  it('exports as the settings say: batches of OTEL_BSP_MAX_EXPORT_BATCH_SIZE, after OTEL_BSP_SCHEDULE_DELAY', () => {
    // Within 4 s, below the default 5 s: the worker's start may take a while on a busy machine.
    const batches = batchesRun({ OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2' }, 4000);
    expect(batches).toEqual([['one', 'two'], ['three']]);
  }, 60_000);

  it('keeps the defaults (512 spans, 5 s) for settings that are not positive numbers', () => {
    expect(batchesRun({ OTEL_BSP_SCHEDULE_DELAY: '-1', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'many' }, 1000)).toEqual([]);
  }, 60_000);
});
