import { AsyncLocalStorage } from 'node:async_hooks';
import { Context, context, ContextManager, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import pino from 'pino';
import { Writable } from 'node:stream';
import { traceFields } from './trace-fields';

describe('traceFields (pino mixin)', () => {
  // What the SDK registers when tracing is on (its own manager lives in a package we do not depend on directly).
  const storage = new AsyncLocalStorage<Context>();
  const manager: ContextManager = {
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
    bind: (_ctx, target) => target,
    enable: () => manager,
    disable: () => manager,
  };
  beforeAll(() => context.setGlobalContextManager(manager));
  afterAll(() => context.disable());

  function logLine(write: () => void): Record<string, unknown> {
    const lines: string[] = [];
    const logger = pino(
      { mixin: traceFields },
      new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) }),
    );
    write.call(logger);
    logger.info('x');
    return JSON.parse(lines[0]);
  }

  it('adds trace_id and span_id of the active span, across awaits', async () => {
    const span = trace.wrapSpanContext({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    });
    const fields = await context.with(trace.setSpan(ROOT_CONTEXT, span), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return traceFields();
    });
    expect(fields).toEqual({ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' });
    const line = context.with(trace.setSpan(ROOT_CONTEXT, span), () => logLine(() => undefined));
    expect(line).toMatchObject({ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' });
  });

  it('adds nothing outside a span (tracing off)', () => {
    expect(traceFields()).toEqual({});
    expect(logLine(() => undefined)).not.toHaveProperty('trace_id');
  });
});
