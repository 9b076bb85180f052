import { join } from 'node:path';
import { DynamicModule } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { configureApp, createHttpAdapter, ServiceApplication, ServiceDefinition } from '@acme/platform-http';
import { checkAnswersAgainstContract } from './contract-check';
import { createTestDatabase, createTestRedisPrefix, TestDatabase, testRedisEnv } from '@acme/platform-test-infra';

export interface TestAppOptions {
  service: ServiceDefinition;
  /** Builds the app module from an env record (the app's own `AppModule.forRoot`). */
  module: (env: Record<string, string>) => DynamicModule;
  env?: Record<string, string>;
  /** Replace providers that stand for things outside our system (mail, push, clock). */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Share one database and Redis prefix between instances (e.g. two instances of one service). */
  database?: TestDatabase;
  redisPrefix?: string;
}

export interface TestApp {
  app: ServiceApplication;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  env: Record<string, string>;
  database: TestDatabase;
  redisPrefix: string;
  close(): Promise<void>;
}

/**
 * Starts the real app in-process against real Postgres and Redis, listening on a free port. The database
 * and prefix are created for it (and dropped on close) unless the caller passes shared ones.
 */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options.service.name));
  const redisPrefix = options.redisPrefix ?? createTestRedisPrefix(options.service.name);
  const env = {
    DATABASE_URL: database.url,
    ...testRedisEnv(),
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  let builder = Test.createTestingModule({ imports: [options.module(env)] });
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const appOptions = { bodyParser: false, logger: false as const };
  const adapter = createHttpAdapter(options.service);
  const app = adapter
    ? moduleRef.createNestApplication<ServiceApplication>(adapter, appOptions)
    : moduleRef.createNestApplication<ServiceApplication>(appOptions);
  configureApp(app, options.service);
  await app.listen(0, '127.0.0.1');
  // Every answer any test receives is checked against the app's published contract (contract-setup.ts).
  checkAnswersAgainstContract(
    app.getHttpServer(),
    join(__dirname, '../../../../../apps', options.service.name, 'openapi.json'),
  );
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    env,
    database,
    redisPrefix,
    async close() {
      await app.close();
      if (ownsDatabase) await database.drop();
    },
  };
}
