import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@acme/platform-test-infra';

export { freePort } from '@acme/platform-test-infra';
import { ROOT } from './scratch-repo';

export { ROOT };

/** Builds the apps through Nx (cached: free when `.ci/run` or an earlier file built them). */
export function ensureBuilt(apps: string[]): void {
  const fresh = apps.every(
    (app) =>
      existsSync(join(ROOT, 'dist/apps', app, 'main.js')) &&
      existsSync(join(ROOT, 'dist/apps', app, 'package-lock.json')),
  );
  if (fresh && process.env['CI']) return;
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/nx/dist/bin/nx.js'),
      'run-many',
      '-t',
      'build',
      '-p',
      apps.join(','),
      '--output-style=static',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    },
  );
  if (result.status !== 0) throw new Error(`build of ${apps.join(', ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export interface RunningService {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `node <main>` with exactly `env` (plus PATH); its output is kept for failure messages. */
export function startService(main: string, env: Record<string, string>, cwd = ROOT): RunningService {
  const child = spawn(process.execPath, [main], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits for `/health` 200; fails with the service's own output if it exits or never gets healthy. */
export async function waitHealthy(service: RunningService, port: number, timeoutMs = 60000): Promise<void> {
  await waitFor(
    async () => {
      if (service.child.exitCode !== null)
        throw new Error(`exited with ${service.child.exitCode}:\n${service.output()}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs, intervalMs: 250, what: `/health 200 on ${port}` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${service.output()}`);
  });
}
