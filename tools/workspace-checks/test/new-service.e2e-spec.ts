import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { NX, nxEnv, projectGraph, scratchRepo } from './support/scratch-repo';

/** docs/adding-a-service.md: `nx g @acme/tools:service` creates a service wired into every list of services. */
describe('nx g @acme/tools:service', () => {
  let scratch: ReturnType<typeof scratchRepo>;
  const generate = (args: string[]) =>
    execFileSync(process.execPath, [NX, 'g', '@acme/tools:service', ...args], {
      cwd: scratch.dir,
      env: nxEnv,
      encoding: 'utf8',
      stdio: 'pipe',
    });

  beforeAll(() => {
    scratch = scratchRepo();
    generate(['demo-api', '--port', '3905', '--scope', 'demo']);
  }, 60000);
  afterAll(() => scratch?.remove());

  it('with --dry-run lists what it would create and writes nothing', () => {
    const output = stripVTControlCharacters(generate(['dry-api', '--port', '3906', '--scope', 'dry', '--dry-run']));
    expect(output).toContain('CREATE apps/dry-api/src/notes/notes.controller.ts');
    expect(output).toContain('CREATE libs/dry/src/lib/notes.repository.ts');
    expect(output).toContain('CREATE libs/schemas/dry/src/index.ts');
    expect(existsSync(join(scratch.dir, 'apps/dry-api'))).toBe(false);
    expect(readFileSync(join(scratch.dir, 'tools/services.json'), 'utf8')).not.toContain('dry-api');
  });

  it('lists it in tools/services.json (npm start, workspace checks, benches) and the compose file', () => {
    const services = JSON.parse(readFileSync(join(scratch.dir, 'tools/services.json'), 'utf8'));
    expect(services).toContainEqual({ name: 'demo-api', port: 3905, scope: 'demo' });
    const compose = parse(readFileSync(join(scratch.dir, 'docker/docker-compose.yml'), 'utf8'), { merge: true });
    expect(compose.services['demo-api']).toMatchObject({
      build: { args: { APP: 'demo-api', PORT: 3905 } },
      environment: { PORT: 3905 },
    });
    expect(compose.services['demo-api'].environment.ADMIN_TOKEN).toContain('ADMIN_TOKEN');
  });

  it('adds its Kubernetes manifests to deploy/kubernetes/base (Deployment on its port, migration Job, public URL)', () => {
    const base = join(scratch.dir, 'deploy/kubernetes/base');
    const kustomization = parse(readFileSync(join(base, 'kustomization.yaml'), 'utf8'));
    expect(kustomization.resources).toEqual(expect.arrayContaining(['demo-api.yaml', 'demo-api-migrate.yaml']));
    const deployment = parseAllDocuments(readFileSync(join(base, 'demo-api.yaml'), 'utf8'))
      .map((doc) => doc.toJS())
      .find((object) => object.kind === 'Deployment');
    const [container] = deployment.spec.template.spec.containers;
    expect({ name: deployment.metadata.name, image: container.image, ports: container.ports }).toEqual({
      name: 'demo-api',
      image: 'acme/demo-api',
      ports: [{ name: 'http', containerPort: 3905 }],
    });
    const job = parse(readFileSync(join(base, 'demo-api-migrate.yaml'), 'utf8'));
    expect(job.spec.template.spec.containers[0]).toMatchObject({
      image: 'acme/demo-api',
      command: ['node', 'main.js', 'migrate'],
    });
    expect(parse(readFileSync(join(base, 'config.yaml'), 'utf8')).data['DEMO_PUBLIC_URL']).toBe('http://demo-api');
  });

  it('makes an Nx app, its domain lib and its schema lib with their tags, targets, import aliases and scope rule', () => {
    const graph = projectGraph(scratch.dir);
    expect(graph['demo-api']?.data.tags).toEqual(['type:app', 'scope:demo']);
    expect(Object.keys(graph['demo-api']?.data.targets ?? {})).toEqual(
      expect.arrayContaining(['build', 'lint', 'typecheck', 'test-e2e', 'openapi']),
    );
    expect(graph['demo']?.data.tags).toEqual(['type:domain', 'scope:demo']);
    const paths = JSON.parse(readFileSync(join(scratch.dir, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
    expect(graph['demo-schema']?.data.tags).toEqual(['type:schema', 'scope:demo']);
    expect(paths['@acme/demo']).toEqual(['libs/demo/src/index.ts']);
    expect(paths['@acme/demo-schema']).toEqual(['libs/schemas/demo/src/index.ts']);
    expect(readFileSync(join(scratch.dir, 'eslint.config.mjs'), 'utf8')).toContain("sourceTag: 'scope:demo'");
  });

  it('refuses a taken name or port', () => {
    expect(() => generate(['demo-api', '--port', '3907', '--scope', 'demo'])).toThrow(/exists already/);
    expect(() => generate(['other-api', '--port', '3001', '--scope', 'other'])).toThrow(/port 3001 is taken/);
  });

  it('boots: its example feature and foundation e2e tests pass, it lints and typechecks clean, and it builds with its own package.json', () => {
    // As docs/adding-a-service.md says: publish the contract first (the foundation test compares it with /docs).
    execFileSync(process.execPath, [NX, 'run', 'demo-api:openapi', '--output-style=static'], {
      cwd: scratch.dir,
      env: nxEnv,
      stdio: 'pipe',
    });
    const tests = spawnSync(
      process.execPath,
      [join(scratch.dir, 'tools/launcher/jest-target.mjs'), 'apps/demo-api', 'test-e2e'],
      { cwd: scratch.dir, env: nxEnv, encoding: 'utf8' },
    );
    expect({ status: tests.status, output: stripVTControlCharacters(tests.stderr) }).toEqual({
      status: 0,
      output: expect.stringMatching(/Tests:\s+(\d+) passed, \1 total/),
    });
    for (const target of ['lint', 'typecheck', 'build'])
      execFileSync(
        process.execPath,
        [NX, 'run-many', '-t', target, '-p', 'demo-api,demo,demo-schema', '--output-style=static'],
        {
          cwd: scratch.dir,
          env: nxEnv,
          stdio: 'pipe',
        },
      );
    const pkg = JSON.parse(readFileSync(join(scratch.dir, 'dist/apps/demo-api/package.json'), 'utf8'));
    expect(pkg.name).toBe('@acme/demo-api');
    // Only what the bundle requires at run time (Nest itself is bundled): Swagger UI's static files, and what
    // tracing needs loaded by Node rather than bundled (docs/deploying.md), as the four services do.
    expect(Object.keys(pkg.dependencies)).toEqual([
      '@opentelemetry/api',
      '@opentelemetry/context-async-hooks',
      '@opentelemetry/instrumentation',
      '@opentelemetry/instrumentation-express',
      '@opentelemetry/instrumentation-http',
      '@opentelemetry/instrumentation-ioredis',
      '@opentelemetry/instrumentation-pg',
      '@opentelemetry/sdk-node',
      '@opentelemetry/sdk-trace',
      'express',
      'ioredis',
      'pg',
      'swagger-ui-dist',
    ]);
  }, 240000);

  it('follows the structure and DTO rules the workspace checks hold (index, schema, cycles, DTO files)', () => {
    const checks = spawnSync(
      process.execPath,
      [
        join(scratch.dir, 'node_modules/jest/bin/jest.js'),
        '-c',
        'tools/workspace-checks/jest.config.cjs',
        'tools/workspace-checks/test/structure.e2e-spec.ts',
        'tools/workspace-checks/test/dto-files.e2e-spec.ts',
      ],
      { cwd: scratch.dir, env: nxEnv, encoding: 'utf8' },
    );
    expect({ status: checks.status, output: stripVTControlCharacters(checks.stderr) }).toEqual({
      status: 0,
      output: expect.stringMatching(/Tests:\s+(\d+) passed, \1 total/),
    });
  }, 120000);
});
