import { Controller, DynamicModule, Get } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Pool } from 'pg';
import { symbols } from 'pino';
import { DataSource } from 'typeorm';
import { BaseEnv } from '@acme/platform-config';
import { ErrorPresenter } from '@acme/platform-errors';
import { ServiceCoreModule, ServiceDefinition } from '@acme/platform-http';
import { startTestApp, TestApp } from './test-app';

class SampleEnv extends BaseEnv {}

const QUERY_SECRET = 'param-value-never-logged';

/** Each route fails with one kind of thrown value, as real code and drivers throw them. */
@Controller('boom')
class FailingController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('object')
  object() {
    throw { message: 'quota store refused', code: 'E_QUOTA', password: 'hunter2-never-logged' };
  }

  @Get('string')
  string() {
    throw 'a bare string was thrown';
  }

  @Get('aggregate')
  aggregate() {
    throw new AggregateError([new Error('replica one refused'), new Error('replica two refused')], 'no replica');
  }

  @Get('query')
  async query() {
    // A wrong query (no such table), not a refused value (that one is the client's 400).
    await this.dataSource.query('SELECT * FROM no_such_table_h7 WHERE id = $1', [QUERY_SECRET]);
  }

  @Get('connect-timeout')
  async connectTimeout() {
    // A pool whose only connection is held: the next checkout times out, as behind a saturated instance.
    const options = this.dataSource.options as { url: string };
    const pool = new Pool({ connectionString: options.url, max: 1, connectionTimeoutMillis: 500 });
    const held = await pool.connect();
    try {
      await pool.query('SELECT 1');
    } finally {
      held.release();
      await pool.end();
    }
  }
}

const presenter: ErrorPresenter = (error) => ({ status: error.status, body: { code: error.code } });

interface LoggedLine {
  msg: string;
  requestId?: string;
  err?: Record<string, unknown>;
}

/** Anything thrown through a route is logged with its type and message, never "[object Object]" nor a parameter. */
describe.each(['express', 'fastify'] as const)('logged causes on %s', (platform) => {
  const service: ServiceDefinition = {
    name: `causes-sample-${platform}`,
    title: 'Causes',
    description: 'Causes',
    version: '1',
    presenter,
    platform,
  };
  const module = (source: Record<string, string>): DynamicModule => ({
    module: class CausesAppModule {},
    imports: [ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'causes', migrations: [] })],
    controllers: [FailingController],
  });
  let app: TestApp;
  const lines: string[] = [];
  const writes: jest.SpyInstance[] = [];

  beforeAll(async () => {
    app = await startTestApp({ service, module });
    const outsideRequests = (await app.app.resolve(PinoLogger)).logger;
    for (const logger of new Set([PinoLogger.root, outsideRequests])) {
      logger.level = 'info';
      const stream = (logger as unknown as Record<symbol, { write(line: string): boolean }>)[symbols.streamSym];
      writes.push(jest.spyOn(stream, 'write').mockImplementation((line: string) => lines.push(line) > 0));
    }
  });
  afterAll(async () => {
    for (const write of writes) write.mockRestore();
    await app?.close();
  });

  it.each([
    ['object', 500, { type: 'object', message: 'quota store refused', code: 'E_QUOTA' }],
    ['string', 500, { type: 'string', message: 'a bare string was thrown' }],
    [
      'aggregate',
      500,
      {
        type: 'AggregateError',
        message: 'no replica',
        errors: [expect.objectContaining({ message: 'replica one refused' }), expect.anything()],
      },
    ],
    ['query', 500, { type: 'QueryFailedError', message: 'QueryFailedError (SQLSTATE 42P01)', sqlstate: '42P01' }],
    // pg-pool's checkout timeout (or pg's own, should the held connection itself be slow on a loaded machine).
    [
      'connect-timeout',
      503,
      { type: 'Error', message: expect.stringMatching(/timeout exceeded when trying to connect|connection timeout/) },
    ],
  ])('%s: answered %i, logged with its type and message', async (route, status, err) => {
    const response = await fetch(`${app.url}/boom/${route}`);
    expect(response.status).toBe(status);
    const requestId = response.headers.get('x-request-id');
    const logged = lines.map((line) => JSON.parse(line) as LoggedLine).find((line) => line.requestId === requestId);
    expect(logged?.err).toMatchObject(err);
    const text = lines.join('\n');
    expect(text).not.toContain('[object Object]');
    expect(text).not.toContain(QUERY_SECRET);
    expect(text).not.toContain('hunter2');
  });
});
