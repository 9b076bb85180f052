import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseEnv } from '@acme/platform-config';
import { releaseStartUpMemory } from '@acme/platform-observability';
import { configureApp } from './configure-app';
import { drainAndClose, shutdownTimings } from './graceful-shutdown';
import { createHttpAdapter, ServiceApplication } from './http-platform';
import { ConnectionWatch } from './keep-alive-drain';
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
    const connections = new ConnectionWatch(app.getHttpServer());
    const url = env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
    // Written directly: the app's logger may buffer, and these lines frame the process's life.
    const line = (level: number, msg: string, extra: object = {}) =>
      process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service: service.name, msg, ...extra })}\n`);
    line(30, `listening on ${url}`, { docs: `${url}/docs` });
    releaseStartUpMemory();
    const stop = (signal: NodeJS.Signals) => {
      line(30, `${signal}: draining`);
      void drainAndClose(app, connections, shutdownTimings(env), (msg) => line(30, msg)).then(
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
