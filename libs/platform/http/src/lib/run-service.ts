import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseEnv } from '@acme/platform-config';
import { releaseStartUpMemory, shutdownTracing } from '@acme/platform-observability';
import { applyMigrationsOnly } from '@acme/platform-persistence';
import { configureApp } from './configure-app';
import { drainAndClose, shutdownTimings } from './graceful-shutdown';
import { createHttpAdapter, ServiceApplication } from './http-platform';
import { migrationTarget } from './service-core.module';
import { ConnectionWatch } from './keep-alive-drain';
import { ServiceDefinition } from './service-definition';
import { describeStartupFailure, StartupFailure, writeFatalLine } from './startup-failure';
import { StartupLogger, writeJsonLine } from './startup-log';

const CODE_CACHE_WARM_UP_ONLY = Symbol.for('acme.codeCache.warmUpOnly');

/** One JSON line naming the cause and the setting to check, then exit 1 (docs/operations.md, start-up failures). */
function fail(service: ServiceDefinition, failure: StartupFailure, error?: unknown): never {
  writeFatalLine(service.name, failure, error);
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
    // The env validator's message names each bad variable and its value.
    return fail(service, { msg: (error as Error).message });
  }
  if (process.argv[2] === 'migrate') return migrateAndExit(service, module);
  try {
    // JSON from the first line (StartupLogger until pino attaches); a failed start reaches the catch below rather
    // than Nest's own exit with a raw stack.
    const options = {
      bufferLogs: true,
      bodyParser: false,
      abortOnError: false,
      // Warnings and errors only: on success Nest's buffered start-up lines go to pino at LOG_LEVEL.
      logger: new StartupLogger(service.name, 40),
    };
    const adapter = createHttpAdapter(service);
    const app = adapter
      ? await NestFactory.create<ServiceApplication>(module, adapter, options)
      : await NestFactory.create<ServiceApplication>(module, options);
    configureApp(app, service);
    const env = app.get(BaseEnv);
    const port = env.PORT ?? 0;
    await app.listen(port, '0.0.0.0');
    const connections = new ConnectionWatch(app.getHttpServer());
    const url = env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
    // Written directly: the app's logger may buffer, and these lines frame the process's life.
    const line = (level: number, msg: string, extra: object = {}) => writeJsonLine(service.name, level, msg, extra);
    line(30, `listening on ${url}`, { docs: `${url}/docs` });
    releaseStartUpMemory();
    const stop = (signal: NodeJS.Signals) => {
      line(30, `${signal}: draining`);
      void drainAndClose(app, connections, shutdownTimings(env), (msg) => line(30, msg))
        .then(() => flushTraces((msg) => line(40, msg)))
        .then(
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
    return fail(service, describeStartupFailure(error), error);
  }
}

/** The last spans (those of the drain and of the jobs the workers finished) go out before exit, within 5 s. */
async function flushTraces(warn: (message: string) => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000).unref()));
  await Promise.race([
    shutdownTracing().catch((error: Error) => warn(`tracing: flush failed: ${error.message}`)),
    bound,
  ]);
  clearTimeout(timer);
}

/**
 * `node main.js migrate`, the release job (docs/deploying.md#migrations): applies the pending migrations of the
 * service's schema under the advisory lock, prints what it applied, exits 0; exits 1 naming the failure.
 */
async function migrateAndExit(service: ServiceDefinition, module: DynamicModule): Promise<undefined> {
  const target = migrationTarget(module);
  if (!target) return fail(service, { msg: 'migrate: the root module was not built by ServiceCoreModule.forApp' });
  try {
    const applied = await applyMigrationsOnly(target);
    process.stdout.write(
      `${JSON.stringify({ level: 30, time: Date.now(), service: service.name, msg: 'migrations applied', schema: target.schema, applied })}\n`,
    );
    process.exit(0);
  } catch (error) {
    return fail(
      service,
      { ...describeStartupFailure(error), msg: `migrate failed: ${describeStartupFailure(error).msg}` },
      error,
    );
  }
}
