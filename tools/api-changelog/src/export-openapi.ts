import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { buildOpenApiDocument, ServiceDefinition } from '@acme/platform-http';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

/** What the exporter needs from an app, found by the apps' convention (src/service.ts, src/app.module.ts). */
export interface AppContract {
  app: string;
  service: ServiceDefinition;
  buildModule: (env: Record<string, string>) => DynamicModule;
}

const isServiceDefinition = (value: unknown): value is ServiceDefinition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ServiceDefinition).name === 'string' &&
  typeof (value as ServiceDefinition).title === 'string';

/** Loaded by path at run time: a tool must not import apps statically (module boundaries). */
export async function loadAppContract(app: string, root = WORKSPACE_ROOT): Promise<AppContract> {
  const src = path.join(root, 'apps', app, 'src');
  const serviceModule: Record<string, unknown> = await import(path.join(src, 'service.ts'));
  const appModule: Record<string, unknown> = await import(path.join(src, 'app.module.ts'));
  const services = Object.values(serviceModule).filter(isServiceDefinition);
  const service = services.find((s) => s.name === app) ?? services[0];
  if (!service) throw new Error(`apps/${app}/src/service.ts exports no ServiceDefinition`);
  const AppModule = appModule['AppModule'] as { forRoot?: (env: Record<string, string>) => DynamicModule } | undefined;
  const forRoot = AppModule?.forRoot?.bind(AppModule);
  if (!forRoot) throw new Error(`apps/${app}/src/app.module.ts exports no AppModule.forRoot(env)`);
  return { app, service, buildModule: (env) => forRoot(env) };
}

/**
 * The document the running app serves at /docs/openapi.json, built from the module graph in preview mode:
 * no provider is instantiated, so nothing listens and nothing connects to Postgres or Redis.
 */
export async function exportOpenApi(
  contract: AppContract,
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const module = contract.buildModule({ LOG_LEVEL: 'silent', ...env });
  const app = await NestFactory.create(module, { preview: true, abortOnError: false, logger: false });
  try {
    return buildOpenApiDocument(app, contract.service) as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

/** The committed form: two-space JSON and a final newline, so diffs and staleness checks are byte-exact. */
export const serializeOpenApi = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

export const contractFile = (app: string, root = WORKSPACE_ROOT) => path.join(root, 'apps', app, 'openapi.json');

async function main(argv: string[]): Promise<void> {
  const env: Record<string, string> = {};
  let app: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--env') {
      const [key, ...value] = (argv[++i] ?? '').split('=');
      env[key] = value.join('=');
    } else app = argv[i];
  }
  if (!app) throw new Error('usage: export-openapi <app> [--out FILE] [--env KEY=VALUE]...');
  const target = out ? path.resolve(out) : contractFile(app);
  const text = serializeOpenApi(await exportOpenApi(await loadAppContract(app), env));
  const previous = await readFile(target, 'utf8').catch(() => undefined);
  if (previous !== text) await writeFile(target, text);
  process.stdout.write(`${path.relative(process.cwd(), target)}: ${previous === text ? 'unchanged' : 'written'}\n`);
}

if (require.main === module) {
  // Exit explicitly: an app module may leave handles (timers, clients) that would keep the process alive.
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`export-openapi: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
