#!/usr/bin/env node
// Creates a new service wired into everything that lists services (docs/adding-a-service.md):
//   node tools/scripts/new-service.mjs <name> --port <port> --scope <scope> [--title "Title"]
// The Nx app (tags, build with its own package.json, test-e2e, openapi targets), a minimal app on the platform
// kernel with a foundation e2e test, tools/services.json (npm start, workspace checks, benches), the compose
// file, and the lint rule of its scope. Run `npm run openapi:export` afterwards to publish its contract.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const [name] = process.argv.slice(2);
const option = (flag) => {
  const index = process.argv.indexOf(flag);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const port = Number(option('--port'));
const scope = option('--scope');
const title =
  option('--title') ??
  name
    ?.split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
const fail = (message) => {
  console.error(`new-service: ${message}`);
  process.exit(2);
};
if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || !Number.isInteger(port) || !scope || !/^[a-z][a-z0-9-]*$/.test(scope)) {
  fail('usage: new-service.mjs <name> --port <port> --scope <scope> [--title "Title"] (kebab-case name and scope)');
}
const servicesFile = join(ROOT, 'tools/services.json');
const services = JSON.parse(readFileSync(servicesFile, 'utf8'));
if (services.some((s) => s.name === name)) fail(`${name} exists already`);
if (services.some((s) => s.port === port)) fail(`port ${port} is taken`);

const dir = `apps/${name}`;
const identifier = name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const schema = name.replace(/-/g, '_');
const write = (file, text) => {
  const full = join(ROOT, dir, file);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
};

const created = spawnSync(
  process.execPath,
  [join(ROOT, 'tools/scripts/new-project.mjs'), 'app', dir, name, '--tags', `type:app,scope:${scope}`],
  { cwd: ROOT, stdio: 'inherit' },
);
if (created.status !== 0) fail('new-project.mjs failed');

const projectFile = join(ROOT, dir, 'project.json');
const project = JSON.parse(readFileSync(projectFile, 'utf8'));
project.targets['test-e2e'] = {};
project.targets.openapi = {
  executor: 'nx:run-commands',
  cache: false,
  outputs: ['{projectRoot}/openapi.json'],
  options: {
    command: `node -r @swc-node/register tools/api-changelog/src/export-openapi.ts ${name}`,
    cwd: '{workspaceRoot}',
  },
};
writeFileSync(projectFile, `${JSON.stringify(project, null, 2)}\n`);

write(
  'src/main.ts',
  `import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { ${identifier}Service } from './service';

void runService(${identifier}Service, () => AppModule.forRoot(loadEnvSource()));
`,
);
write(
  'src/service.ts',
  `import { ServiceDefinition } from '@acme/platform-http';
import { presentError } from './http/error-presenter';

export const ${identifier}Service: ServiceDefinition = {
  name: '${name}',
  title: '${title}',
  description: '${title}.',
  version: '1.0',
  presenter: presentError,
};
`,
);
write(
  'src/config/env.ts',
  `import { BaseEnv } from '@acme/platform-config';

/** The only place this app reads process.env (see \`loadEnvSource\`). */
export class ServiceEnv extends BaseEnv {
  override PORT = ${port};
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
`,
);
write(
  'src/http/error-presenter.ts',
  `import { ErrorPresenter } from '@acme/platform-errors';

/** This API's error body; replace with the wire shape its specification gives. */
export const presentError: ErrorPresenter = (error) => ({
  status: error.status,
  body: { error: { code: error.code, message: error.message, request_id: error.requestId } },
});
`,
);
write(
  'src/app.module.ts',
  `import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@acme/platform-http';
import { ServiceEnv } from './config/env';
import { ${identifier}Service } from './service';

/** The service's own PostgreSQL schema; its domain lib's migrations go in \`migrations\`. */
export const SCHEMA = '${schema}';

@Module({})
export class AppModule {
  static forRoot(source: Record<string, unknown>): DynamicModule {
    // Feature modules go in the list, one per feature folder.
    return ServiceCoreModule.forApp(AppModule, { service: ${identifier}Service, envClass: ServiceEnv, source, schema: SCHEMA, migrations: [] }, []);
  }
}
`,
);
write(
  'test/foundation.e2e-spec.ts',
  `import { describeFoundation } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { ${identifier}Service } from '../src/service';

describeFoundation(
  { service: ${identifier}Service, module: (env) => AppModule.forRoot(env) },
  {
    notFoundBody: ({ body }) => {
      expect(body).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
    },
  },
);
`,
);
write(
  'README.md',
  `# ${name}\n\n${title}. Default port ${port}; PostgreSQL schema \`${schema}\`. Decisions: docs/${name}.md.\n`,
);

services.push({ name, port, scope });
const line = (service) =>
  `  { ${Object.entries(service)
    .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(', ')} }`;
writeFileSync(servicesFile, `[\n${services.map(line).join(',\n')}\n]\n`);

const composeFile = join(ROOT, 'docker/docker-compose.yml');
const compose = readFileSync(composeFile, 'utf8');
const block = `
  ${name}:
    <<: *service
    build: { context: .., dockerfile: docker/Dockerfile, args: { APP: ${name}, PORT: ${port} } }
    environment: { <<: *env, PORT: ${port} }
    ports: ["${port}:${port}"]
`;
writeFileSync(composeFile, compose.replace(/\nvolumes:\n/, `${block}\nvolumes:\n`));

const eslintFile = join(ROOT, 'eslint.config.mjs');
const eslint = readFileSync(eslintFile, 'utf8');
if (!eslint.includes(`'scope:${scope}'`)) {
  const rule = `{ sourceTag: 'scope:${scope}', onlyDependOnLibsWithTags: ['scope:${scope}', 'scope:shared'] },`;
  const anchor = eslint.match(/\n(\s*)\{ sourceTag: 'scope:migration'[^\n]*\n/);
  if (!anchor) fail('eslint.config.mjs: no scope rule to add beside');
  writeFileSync(eslintFile, eslint.replace(anchor[0], `${anchor[0]}${anchor[1]}${rule}\n`));
}
if (!existsSync(join(ROOT, 'docs', `${name}.md`)))
  writeFileSync(
    join(ROOT, 'docs', `${name}.md`),
    `# ${name}: decisions\n\nWrite here what the code of ${name} relies on.\n`,
  );
console.log(
  `created service ${name} on port ${port} (scope ${scope}); next: npm run openapi:export, then npm test -- apps/${name}`,
);
