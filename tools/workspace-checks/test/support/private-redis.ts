import { ChildProcess, spawn } from 'node:child_process';
import { waitFor } from '@acme/platform-test-infra';
import { freePort } from './built-service';

export interface PrivateRedis {
  url: string;
  /** SIGKILL: the connection drops at once and every key is gone (nothing is saved). */
  kill(): Promise<void>;
  /** A new empty server on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function ping(port: number): Promise<boolean> {
  const { default: Redis } = await import('ioredis');
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A redis-server (from PATH, as the launcher uses) that only this test talks to, so it can be killed. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitFor(() => ping(port), { timeoutMs: 10_000, intervalMs: 100, what: `private redis-server on ${port}` });
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start, stop: kill };
}
