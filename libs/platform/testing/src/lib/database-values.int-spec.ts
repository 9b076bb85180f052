import { Controller, DynamicModule, Param, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BaseEnv } from '@acme/platform-config';
import { ErrorPresenter } from '@acme/platform-errors';
import { ServiceCoreModule, ServiceDefinition } from '@acme/platform-http';
import { startTestApp, TestApp } from './test-app';

class SampleEnv extends BaseEnv {}

/** Statements PostgreSQL refuses for their value, with the SQLSTATE each raises. */
const REFUSED: Record<string, string> = {
  '22001': `INSERT INTO refused_values (short_text) VALUES ('a' || repeat(chr(65039), 8))`,
  '22003': `INSERT INTO refused_values (small_number) VALUES (99999)`,
  '22007': `INSERT INTO refused_values (moment) VALUES ('not a date')`,
  '22008': `INSERT INTO refused_values (moment) VALUES ('2030-02-30T10:00:00Z')`,
};

/** Stands for a route whose validation let a value through that its column cannot hold. */
@Controller('values')
class ValuesController {
  constructor(private readonly dataSource: DataSource) {}

  @Post(':sqlState')
  async store(@Param('sqlState') sqlState: string) {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        'CREATE TEMP TABLE refused_values (short_text varchar(4), small_number smallint, moment timestamptz) ON COMMIT DROP',
      );
      await manager.query(REFUSED[sqlState]);
    });
    return { stored: true };
  }
}

const presenter: ErrorPresenter = (error) => ({
  status: error.status,
  body: { sample_error: error.code, message: error.message },
});

const sampleModule = (source: Record<string, string>, service: ServiceDefinition): DynamicModule => ({
  module: class DatabaseValuesSampleModule {},
  imports: [ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'sample', migrations: [] })],
  controllers: [ValuesController],
});

/** Every service maps these through the shared exception filter (normalize-error.ts), on either engine. */
describe.each(['express', 'fastify'] as const)('a value PostgreSQL refuses, on %s', (platform) => {
  let app: TestApp;
  const service: ServiceDefinition = {
    name: `database-values-sample-${platform}`,
    title: 'Sample',
    description: 'Sample',
    version: '1',
    presenter,
    platform,
  };

  beforeAll(async () => {
    app = await startTestApp({ service, module: (env) => sampleModule(env, service) });
  });
  afterAll(async () => app?.close());

  it.each(Object.keys(REFUSED))('SQLSTATE %s is a 400 in the app shape, never a 500', async (sqlState) => {
    const response = await fetch(`${app.url}/values/${sqlState}`, { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ sample_error: 'VALIDATION_FAILED', message: expect.any(String) });
  });
});
