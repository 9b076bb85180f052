import { testDatabaseServerUrl } from '@acme/platform-test-infra';
import { inFreshNode, OTLP_RECEIVER_SCRIPT } from '../../test/fresh-node';

interface QuerySpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  text?: string;
}

/**
 * In a fresh Node with tracing on (pg only, every root sampled, exported as OTLP/JSON to a receiver in the same
 * process), against the real PostgreSQL: a traced request opens a pool's only connection and queries while an
 * untraced caller waits for it; then two untraced callers share that connection after the traced request ended.
 * Returns every span exported.
 */
function spansOfSharedPool(): QuerySpan[] {
  const script = `${OTLP_RECEIVER_SCRIPT}
    withReceiver(async () => {
      const tracing = require('./libs/platform/observability/src/lib/tracing.ts');
      tracing.startTracingFromEnv(process.env);
      const { Pool } = require('pg');
      const { context, trace, ROOT_CONTEXT } = require('@opentelemetry/api');
      const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
      const untraced = (text) => context.with(ROOT_CONTEXT, () => pool.query(text));
      await trace.getTracer('test').startActiveSpan('traced request', async (span) => {
        const client = await pool.connect();
        const waiting = untraced("SELECT 'waiting'");
        await client.query("SELECT 'traced'");
        client.release();
        await waiting;
        span.end();
      });
      await Promise.all([untraced("SELECT 'later 1'"), untraced("SELECT 'later 2'")]);
      await tracing.shutdownTracing();
      await pool.end();
      receiver.close();
      const attribute = (span, key) => span.attributes.find((entry) => entry.key === key)?.value.stringValue;
      const spans = spansOf(bodies);
      process.stdout.write(JSON.stringify(spans.map((span) => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        text: attribute(span, 'db.query.text') ?? attribute(span, 'db.statement'),
      }))));
    });`;
  const stdout = inFreshNode(script, {
    DATABASE_URL: testDatabaseServerUrl(),
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg',
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('[{'))) as QuerySpan[];
}

describe('pool checkouts with tracing on (real PostgreSQL)', () => {
  let spans: QuerySpan[];
  beforeAll(() => {
    spans = spansOfSharedPool();
  }, 60_000);

  it("traces the traced request's query under its span", () => {
    const request = spans.find((span) => span.name === 'traced request');
    const traced = spans.filter((span) => span.text === "SELECT 'traced'");
    expect(traced).toHaveLength(1);
    expect(traced[0]).toMatchObject({ traceId: request?.traceId, parentSpanId: request?.spanId });
  });

  it("never makes an untraced caller's query a span of another request's trace, while or after it runs", () => {
    const texts = spans.map((span) => span.text).filter((text) => text !== undefined);
    expect(texts).toEqual(["SELECT 'traced'"]);
  });
});
