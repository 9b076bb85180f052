import { Controller, DynamicModule, Get } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Pool } from 'pg';
import { symbols } from 'pino';
import { DataSource } from 'typeorm';
import { BaseEnv } from '@acme/platform-config';
import { ErrorPresenter } from '@acme/platform-errors';
import { HeavyRoute, ServiceCoreModule, ServiceDefinition } from '@acme/platform-http';
import { eventLoopDelay } from '@acme/platform-observability';
import { markOverloadOn } from '@acme/platform-persistence';
import { freePort } from '@acme/platform-test-infra';
import { startTestApp, TestApp } from './test-app';

class SampleEnv extends BaseEnv {}

let releaseHeavy: () => void = () => undefined;
let refusedPort = 1;

@Controller('load')
class LoadController {
  constructor(private readonly dataSource: DataSource) {}

  /** Holds one pool connection for a while. */
  @Get('hold')
  async hold() {
    await this.dataSource.query('SELECT pg_sleep(6.5)');
    return { held: true };
  }

  /** One second of work on a pool connection: 80 at once keep the pool full while it keeps answering. */
  @Get('second')
  async second() {
    await this.dataSource.query('SELECT pg_sleep(1)');
    return { ok: true };
  }

  @Get('one')
  async one() {
    return this.dataSource.query('SELECT 1 AS one');
  }

  /** A PostgreSQL that refuses connections: an outage, whatever the load. */
  @Get('refused')
  async refused() {
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${refusedPort}/x`, max: 1 });
    markOverloadOn(pool, 'refusing');
    try {
      await pool.query('SELECT 1');
    } finally {
      await pool.end();
    }
  }

  @Get('heavy')
  @HeavyRoute('sample-import')
  async heavy() {
    await new Promise<void>((resolve) => (releaseHeavy = resolve));
    return { done: true };
  }
}

const presenter: ErrorPresenter = (error) => ({ status: error.status, body: { code: error.code } });

/**
 * A saturated instance answers "busy" (scale out), never "unavailable" (check PostgreSQL); heavy routes are
 * bounded per instance and refused at once past the bound; /metrics shows why.
 */
describe('overload', () => {
  const service: ServiceDefinition = {
    name: 'overload-sample',
    title: 'Overload',
    description: 'Overload',
    version: '1',
    presenter,
    platform: 'express',
  };
  const module = (source: Record<string, string>): DynamicModule => ({
    module: class OverloadAppModule {},
    imports: [ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'overload', migrations: [] })],
    controllers: [LoadController],
  });
  let app: TestApp;
  const lines: Array<{ msg: string; requestId?: string; event?: string; overload?: Record<string, unknown> }> = [];
  const writes: jest.SpyInstance[] = [];
  const get = (path: string) => fetch(`${app.url}${path}`);

  beforeAll(async () => {
    refusedPort = await freePort();
    app = await startTestApp({ service, module, env: { HEAVY_ROUTE_CONCURRENCY: '1' } });
    const outsideRequests = (await app.app.resolve(PinoLogger)).logger;
    for (const logger of new Set([PinoLogger.root, outsideRequests])) {
      logger.level = 'info';
      const stream = (logger as unknown as Record<symbol, { write(line: string): boolean }>)[symbols.streamSym];
      writes.push(jest.spyOn(stream, 'write').mockImplementation((line: string) => lines.push(JSON.parse(line)) > 0));
    }
  });
  afterAll(async () => {
    for (const write of writes) write.mockRestore();
    await app?.close();
  });

  it('a pool checkout timing out behind a full pool that keeps answering is 503 busy, logged with the pool state', async () => {
    const requests = Array.from({ length: 80 }, () => get('/load/second'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const metrics = await (await get('/metrics')).text();
    expect(metrics).toMatch(/db_pool_size\{pool="primary"\} 10/);
    expect(metrics).toMatch(/db_pool_connections_in_use\{pool="primary"\} 10/);
    expect(metrics).toMatch(/db_pool_waiting_requests\{pool="primary"\} [1-9]\d*/);
    expect(metrics).toMatch(/nodejs_eventloop_delay_seconds_bucket\{le="0.05"\} \d+/);
    expect(metrics).toMatch(/nodejs_eventloop_delay_seconds_count \d+/);
    const answers = await Promise.all(
      requests.map(async (request) => {
        const response = await request;
        return { response, body: (await response.json()) as { code?: string } };
      }),
    );
    const refused = answers.filter(({ response }) => response.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map(({ response, body }) => `${response.status} ${body.code}`))).toEqual(
      new Set(['503 SERVICE_BUSY']),
    );
    const busy = refused[0].response;
    expect(busy.headers.get('retry-after')).toBe('1');
    const logged = lines.find((line) => line.requestId === busy.headers.get('x-request-id'));
    expect(logged).toMatchObject({
      msg: 'Instance overloaded',
      event: 'overload',
      overload: { pool: 'primary', size: 10, inUse: 10, eventLoopDelayMs: expect.any(Number) },
    });
    expect(logged?.overload).toHaveProperty('waiting');
  }, 60_000);

  it('a full pool whose connections all hang is PostgreSQL not answering: "unavailable", even with a slow event loop', async () => {
    // Nothing has come back for longer than the checkout timeout when the next checkout gives up.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const holders = Array.from({ length: 10 }, () => get('/load/hold'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A loaded machine: the loop falls 150 ms behind again and again while the checkout waits. That alone says
    // nothing about PostgreSQL, so it must not turn the outage into "busy".
    const stall = setInterval(() => {
      const until = Date.now() + 150;
      while (Date.now() < until);
    }, 50);
    const stuck = await get('/load/one').finally(() => clearInterval(stall));
    expect(eventLoopDelay().recentMs()).toBeGreaterThanOrEqual(100);
    expect(stuck.status).toBe(503);
    expect(await stuck.json()).toEqual({ code: 'DATABASE_UNAVAILABLE' });
    expect((await Promise.all(holders)).map((response) => response.status)).toEqual(Array(10).fill(200));
  }, 60_000);

  it('a refused connection stays "unavailable" (check PostgreSQL)', async () => {
    const refused = await get('/load/refused');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ code: 'DATABASE_UNAVAILABLE' });
    expect(lines.find((line) => line.requestId === refused.headers.get('x-request-id'))?.msg).toBe(
      'Dependency unavailable',
    );
  });

  it('past HEAVY_ROUTE_CONCURRENCY a heavy route is refused at once with Retry-After, then admits again', async () => {
    const first = get('/load/heavy');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const startedAt = Date.now();
    const second = await get('/load/heavy');
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(second.status).toBe(503);
    expect(await second.json()).toEqual({ code: 'SERVICE_BUSY' });
    expect(second.headers.get('retry-after')).toBe('1');
    releaseHeavy();
    expect((await first).status).toBe(200);
    const third = get('/load/heavy');
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseHeavy();
    expect((await third).status).toBe(200);
    const metrics = await (await get('/metrics')).text();
    expect(metrics).toMatch(/http_heavy_route_refused_total\{route="sample-import"\} 1/);
  });
});
