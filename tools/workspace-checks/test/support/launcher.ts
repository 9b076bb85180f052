import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT } from './built-service';

export const START = join(ROOT, 'tools/launcher/start.mjs');
const serverUrl = new URL(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
export const SERVER_URL = serverUrl.toString();

/** The launcher as a fresh machine runs it: no DATABASE_URL, so it finds this run's server itself. */
export function launcherEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_PRETTY: 'false', ...extra };
  delete env['DATABASE_URL'];
  // Whichever server this run's tests use, the launcher's probes find it first.
  env['LOCAL_PG_PORT'] = env['EMBEDDED_PG_PORT'] = serverUrl.port || '5432';
  return env;
}

export interface RunningLauncher {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** `npm start [services]` with `env`, resolved once its summary is printed (or it exited, or 180 s passed). */
export async function startLauncher(services: string[], env: NodeJS.ProcessEnv): Promise<RunningLauncher> {
  const child = spawn(process.execPath, [START, ...services], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 180_000;
  while (!stdout.includes('Ctrl-C stops everything.') && Date.now() < deadline && child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new Client({ connectionString: SERVER_URL });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
}
