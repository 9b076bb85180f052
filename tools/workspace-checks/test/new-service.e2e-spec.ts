import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { parse } from 'yaml';
import { NX, nxEnv, projectGraph, scratchRepo } from './support/scratch-repo';

/** docs/adding-a-service.md: one command creates a service wired into every list of services. */
describe('tools/scripts/new-service.mjs', () => {
  let scratch: ReturnType<typeof scratchRepo>;
  const run = (file: string, args: string[]) =>
    execFileSync(process.execPath, [file, ...args], { cwd: scratch.dir, env: nxEnv, encoding: 'utf8', stdio: 'pipe' });

  beforeAll(() => {
    scratch = scratchRepo();
    run(join(scratch.dir, 'tools/scripts/new-service.mjs'), ['demo-api', '--port', '3905', '--scope', 'demo']);
  }, 60000);
  afterAll(() => scratch?.remove());

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

  it('makes an Nx app with its tags, targets and scope rule', () => {
    const node = projectGraph(scratch.dir)['demo-api'];
    expect(node.data.tags).toEqual(['type:app', 'scope:demo']);
    expect(Object.keys(node.data.targets)).toEqual(expect.arrayContaining(['build', 'lint', 'test-e2e', 'openapi']));
    expect(readFileSync(join(scratch.dir, 'eslint.config.mjs'), 'utf8')).toContain("sourceTag: 'scope:demo'");
  });

  it('refuses a taken name or port', () => {
    expect(() =>
      run(join(scratch.dir, 'tools/scripts/new-service.mjs'), ['demo-api', '--port', '3906', '--scope', 'demo']),
    ).toThrow(/exists already/);
    expect(() =>
      run(join(scratch.dir, 'tools/scripts/new-service.mjs'), ['other-api', '--port', '3001', '--scope', 'demo']),
    ).toThrow(/port 3001 is taken/);
  });

  it('boots: its foundation e2e test passes and it builds with its own package.json', () => {
    const tests = spawnSync(
      process.execPath,
      [join(scratch.dir, 'tools/launcher/jest-target.mjs'), 'apps/demo-api', 'test-e2e'],
      { cwd: scratch.dir, env: nxEnv, encoding: 'utf8' },
    );
    expect(tests.status).toBe(0);
    expect(stripVTControlCharacters(tests.stderr)).toMatch(/Tests:\s+6 passed, 6 total/);
    execFileSync(process.execPath, [NX, 'build', 'demo-api', '--output-style=static'], {
      cwd: scratch.dir,
      env: nxEnv,
      stdio: 'pipe',
    });
    const pkg = JSON.parse(readFileSync(join(scratch.dir, 'dist/apps/demo-api/package.json'), 'utf8'));
    expect(pkg.name).toBe('@acme/demo-api');
    expect(pkg.dependencies).toHaveProperty('@nestjs/core');
  }, 180000);
});
