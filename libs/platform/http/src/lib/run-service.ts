import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseEnv } from '@acme/platform-config';
import { releaseStartUpMemory } from '@acme/platform-observability';
import { applyMigrationsOnly } from '@acme/platform-persistence';
import { configureApp } from './configure-app';
import { drainAndClose, shutdownTimings } from './graceful-shutdown';
import { createHttpAdapter, ServiceApplication } from './http-platform';
import { migrationTarget } from './service-core.module';
import { ServiceDefinition } from './service-definition';

const CODE_CACHE_WARM_UP_ONLY = Symbol.for('acme.codeCache.warmUpOnly');

function fail(service: ServiceDefinition, message: string): never {
  process.stderr.write(`${service.name}: ${message}\n`);
  process.exit(1);
}

/**
 * Process entry point shared by every app's main.ts. `buildModule` validates the env, so a bad variable
 * ends the process with a message naming it before anything connects.
 */
export async function runService(
  service: ServiceDefinition,
  buildModule: () => DynamicModule,
): Promise<ServiceApplication | undefined> {
  // `main.js --write-code-cache` (tools/build/code-cache-main.cjs) only loads the modules: nothing starts.
  if ((globalThis as Record<symbol, unknown>)[CODE_CACHE_WARM_UP_ONLY] === true) return undefined;
  let module: DynamicModule;
  try {
    module = buildModule();
  } catch (error) {
    return fail(service, (error as Error).message);
  }
  if (process.argv[2] === 'migrate') return migrateAndExit(service, module);
  try {
    const options = { bufferLogs: true, bodyParser: false };
    const adapter = createHttpAdapter(service);
    const app = adapter
      ? await NestFactory.create<ServiceApplication>(module, adapter, options)
      : await NestFactory.create<ServiceApplication>(module, options);
    configureApp(app, service);
    const env = app.get(BaseEnv);
    const port = env.PORT ?? 0;
    await app.listen(port, '0.0.0.0');
    const url = env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
    // Written directly: the app's logger may buffer, and these lines frame the process's life.
    const line = (level: number, msg: string, extra: object = {}) =>
      process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service: service.name, msg, ...extra })}\n`);
    line(30, `listening on ${url}`, { docs: `${url}/docs` });
    releaseStartUpMemory();
    const stop = (signal: NodeJS.Signals) => {
      line(30, `${signal}: draining`);
      void drainAndClose(app, shutdownTimings(env), (msg) => line(30, msg)).then(
        () => process.exit(0),
        (error: Error) => {
          line(50, `shutdown failed: ${error.message}`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return app;
  } catch (error) {
    return fail(service, `failed to start: ${(error as Error).stack ?? String(error)}`);
  }
}

/**
 * `node main.js migrate`, the release job (docs/deploying.md#migrations): applies the pending migrations of the
 * service's schema under the advisory lock, prints what it applied, exits 0; exits 1 naming the failure.
 */
async function migrateAndExit(service: ServiceDefinition, module: DynamicModule): Promise<undefined> {
  const target = migrationTarget(module);
  if (!target) return fail(service, 'migrate: the root module was not built by ServiceCoreModule.forApp');
  try {
    const applied = await applyMigrationsOnly(target);
    process.stdout.write(
      `${JSON.stringify({ level: 30, time: Date.now(), service: service.name, msg: 'migrations applied', schema: target.schema, applied })}\n`,
    );
    process.exit(0);
  } catch (error) {
    return fail(service, `migrate failed: ${(error as Error).message}`);
  }
}
