import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  createTestRedisPrefix,
  testRedisUrl,
  TestDatabase,
  waitFor,
} from '@acme/platform-test-infra';
import { ensureBuilt, freePort, ROOT, RunningService, startService, waitHealthy } from './support/built-service';
import { descendsFrom, OtlpReceiver, ReceivedSpan, startOtlpReceiver, tracingEnv } from './support/otlp-receiver';
import { call, OUTAGE_BOOTSTRAP } from './support/source-service';

// Tracing in the built bundles (docs/operations.md, Tracing): the OpenTelemetry SDK and the instrumented packages
// (pg, ioredis, express) are webpack externals, so require-in-the-middle sees them load.
const ADMIN = 'tracing-admin-token-0123456789abc';
const SERVER = 2;
const CONSUMER = 5;

let scratch = '';
/** A --require preload that writes the module ids Node's loader holds at exit (the bundle itself is one of them). */
let preload = '';

interface BuiltService {
  url: string;
  service: RunningService;
  database: TestDatabase;
  /** Stops the service (SIGTERM: drains, flushes the spans) and lists the modules it had loaded. */
  stop(): Promise<string[]>;
}

async function startBuilt(app: string, env: Record<string, string>): Promise<BuiltService> {
  const database = await createTestDatabase(`trace_${app}`);
  const port = await freePort();
  const loaded = join(scratch, `${app}-${port}.json`);
  const service = startService(join(ROOT, 'dist/apps', app, 'main.js'), {
    NODE_OPTIONS: `--require ${preload}`,
    LOADED_MODULES_FILE: loaded,
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: createTestRedisPrefix(`trace-${app}`),
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
    ADMIN_TOKEN: ADMIN,
    ...env,
  });
  await waitHealthy(service, port, 120_000);
  return {
    url: `http://127.0.0.1:${port}`,
    service,
    database,
    async stop() {
      await service.stop();
      await database.drop();
      return JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    },
  };
}

const sdkModules = (modules: string[]) => modules.filter((id) => /@opentelemetry[\\/]sdk-/.test(id));
const packageLoaded = (modules: string[], name: string) => modules.some((id) => id.includes(`/node_modules/${name}/`));
const isPg = (span: ReceivedSpan) =>
  span.attributes['db.system.name'] === 'postgresql' || span.attributes['db.system'] === 'postgresql';
const isRedis = (span: ReceivedSpan) =>
  span.attributes['db.system.name'] === 'redis' || span.attributes['db.system'] === 'redis';
const serverSpan = (spans: ReceivedSpan[], path: string) =>
  spans.find((span) => span.kind === SERVER && span.attributes['url.path'] === path);
const describeSpans = (spans: ReceivedSpan[]) =>
  spans
    .map((s) => `${s.service} ${s.kind} ${s.name} ${s.traceId.slice(0, 8)} ${s.spanId}<-${s.parentSpanId}`)
    .join('\n');

describe('tracing in the built services', () => {
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    ensureBuilt(['migration-worker', 'management-api']);
    scratch = mkdtempSync(join(tmpdir(), 'tracing-e2e-'));
    preload = join(scratch, 'loaded-modules.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_MODULES_FILE, " +
        'JSON.stringify(Object.keys(require.cache))));\n',
    );
    receiver = await startOtlpReceiver();
  }, 600_000);

  afterAll(async () => {
    await receiver?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('with no OTEL_* set, loads no @opentelemetry/sdk-* module (pg and ioredis still load through Node)', async () => {
    const worker = await startBuilt('migration-worker', {});
    const workspace = await call(`${worker.url}/admin/v1/workspaces`, {
      body: { name: 'untraced' },
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(workspace.status).toBe(201);
    const modules = await worker.stop();
    expect(sdkModules(modules)).toEqual([]);
    expect({ pg: packageLoaded(modules, 'pg'), ioredis: packageLoaded(modules, 'ioredis') }).toEqual({
      pg: true,
      ioredis: true,
    });
    expect(receiver.spans).toEqual([]);
  }, 180_000);

  it('one POST migrate is one trace: the request, then each slice job under it, with the batches SQL under the job', async () => {
    const worker = await startBuilt('migration-worker', {
      ...tracingEnv(receiver, 'migration-worker'),
      MIGRATION_JOB_BACKOFF_MS: '100',
      // Three slice jobs of two batches each.
      MIGRATION_SLICE_SIZE: '10',
      MIGRATION_BATCH_SIZE: '5',
    });
    const admin = { authorization: `Bearer ${ADMIN}` };
    const workspace = (await call(`${worker.url}/admin/v1/workspaces`, { body: { name: 'traced' }, headers: admin }))
      .body;
    for (const organizationId of ['org-a', 'org-b'])
      expect(
        (
          await call(`${worker.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, {
            body: { organizationId },
            headers: admin,
          })
        ).status,
      ).toBe(201);
    const documents = Array.from({ length: 30 }, (_, i) => ({
      id: `d-${i}`,
      title: `Document ${i}`,
      content: `content ${i}`,
      records: [{ id: 'r0', kind: 'comment', body: { text: 'note' } }],
    }));
    expect(
      (
        await call(`${worker.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations/org-a/documents`, {
          body: { documents },
          headers: admin,
        })
      ).status,
    ).toBeLessThan(300);
    const keys = { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken };
    const started = await call(`${worker.url}/v2/organizations/documents/migrate`, {
      body: { data: { organizationId: 'org-a', targetOrganizationId: 'org-b' } },
      headers: keys,
    });
    expect({ status: started.status, body: started.body }).toMatchObject({ status: 200 });
    const migrationId = started.body.result.data.migrationId;
    await waitFor(
      async () =>
        (
          await call(`${worker.url}/v2/organizations/documents/migrate/status`, {
            body: { data: { organizationId: 'org-a', migrationId } },
            headers: keys,
          })
        ).body?.result?.data?.status === 'completed',
      { timeoutMs: 30_000, intervalMs: 250, what: 'the migration to complete' },
    );
    const modules = await worker.stop(); // flushes the last spans
    expect(sdkModules(modules).length).toBeGreaterThan(0);

    const request = serverSpan(receiver.spans, '/v2/organizations/documents/migrate');
    expect(request).toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === request!.traceId);
    const jobs = receiver.spans.filter(
      (span) => span.kind === CONSUMER && span.attributes['messaging.system'] === 'bullmq',
    );
    expect(jobs.length).toBe(3); // 30 documents in slices of 10
    const report = describeSpans(trace);
    for (const job of jobs) {
      expect({ job: job.spanId, traceId: job.traceId }).toEqual({ job: job.spanId, traceId: request!.traceId });
      expect({ underRequest: descendsFrom(trace, job, request!), report }).toEqual({ underRequest: true, report });
    }
    const jobSql = trace.filter((span) => isPg(span) && jobs.some((job) => descendsFrom(trace, span, job)));
    expect({ jobSql: jobSql.length > 0, report }).toEqual({ jobSql: true, report });
    expect(new Set(trace.map((span) => span.service))).toEqual(new Set(['migration-worker']));
  }, 300_000);

  it('one /oauth/token is one trace, with its Redis and PostgreSQL calls under the request', async () => {
    const management = await startBuilt('management-api', {
      ...tracingEnv(receiver, 'management-api'),
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: OUTAGE_BOOTSTRAP.id,
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: OUTAGE_BOOTSTRAP.secret,
      PUBLIC_URL: 'https://tenant.test',
    });
    const token = await call(`${management.url}/oauth/token`, {
      body: {
        grant_type: 'client_credentials',
        client_id: OUTAGE_BOOTSTRAP.id,
        client_secret: OUTAGE_BOOTSTRAP.secret,
        audience: OUTAGE_BOOTSTRAP.audience,
      },
    });
    expect(token.status).toBe(200);
    await management.stop();

    const request = serverSpan(
      receiver.spans.filter((span) => span.service === 'management-api'),
      '/oauth/token',
    );
    expect(request).toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === request!.traceId);
    const report = describeSpans(trace);
    const under = (test: (span: ReceivedSpan) => boolean) =>
      trace.filter((span) => test(span) && descendsFrom(trace, span, request!)).length > 0;
    expect({ redis: under(isRedis), pg: under(isPg), report }).toEqual({ redis: true, pg: true, report });
    // Queries only: pool checkouts and connects open no span of their own (docs/operations.md, Tracing).
    expect(trace.filter((span) => /^pg(-pool)?\.connect$/.test(span.name))).toEqual([]);
    // Nothing of that trace is left outside the request's tree.
    expect(trace.filter((span) => span !== request && !descendsFrom(trace, span, request!))).toEqual([]);
  }, 180_000);

  it('with a ratio sampler, decides at the edge: a root that loses the draw leaves no span, a sampled parent is followed', async () => {
    const management = await startBuilt('management-api', {
      ...tracingEnv(receiver, 'management-api-ratio'),
      // Ratio 0: every root loses the draw, so only a caller's sampled traceparent can start a trace.
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: OUTAGE_BOOTSTRAP.id,
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: OUTAGE_BOOTSTRAP.secret,
      PUBLIC_URL: 'https://tenant.test',
    });
    const body = {
      grant_type: 'client_credentials',
      client_id: OUTAGE_BOOTSTRAP.id,
      client_secret: OUTAGE_BOOTSTRAP.secret,
      audience: OUTAGE_BOOTSTRAP.audience,
    };
    const sampledTrace = 'a'.repeat(32);
    const unsampledTrace = 'b'.repeat(32);
    const statuses = [
      (await call(`${management.url}/oauth/token`, { body })).status,
      (await call(`${management.url}/oauth/token`, { body })).status,
      (
        await call(`${management.url}/oauth/token`, {
          body,
          headers: { traceparent: `00-${sampledTrace}-${'1'.repeat(16)}-01` },
        })
      ).status,
      (
        await call(`${management.url}/oauth/token`, {
          body,
          headers: { traceparent: `00-${unsampledTrace}-${'2'.repeat(16)}-00` },
        })
      ).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200]);
    await management.stop();

    const spans = receiver.spans.filter((span) => span.service === 'management-api-ratio');
    const requests = spans.filter((span) => span.kind === SERVER && span.attributes['url.path'] === '/oauth/token');
    expect(requests.map((span) => span.traceId)).toEqual([sampledTrace]);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([sampledTrace]));
    // Whatever the followed request did (its client's credentials are cached by then) stays under it.
    expect(spans.filter((span) => span !== requests[0] && !descendsFrom(spans, span, requests[0]))).toEqual([]);
  }, 180_000);
});
