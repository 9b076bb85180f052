import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import Redis from 'ioredis';
import { startRedisCluster, StartedRedisCluster, waitFor } from '@acme/platform-testing';

export { freePort } from '@acme/platform-testing';

export const ROOT = path.resolve(__dirname, '../../..');

/** A Redis of the test's own, which it may kill; `env` is what a service needs to reach it. */
export interface PrivateRedisTopology {
  readonly env: Record<string, string>;
  start(): Promise<void>;
  kill(): Promise<void>;
}

/** A private redis-server (never the shared one on 6379), without persistence: a restart loses every key. */
export class PrivateRedis implements PrivateRedisTopology {
  private process?: ChildProcess;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get env(): Record<string, string> {
    return { REDIS_URL: this.url };
  }

  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await waitFor(
        async () =>
          probe
            .connect()
            .then(() => probe.ping())
            .catch(() => undefined),
        { timeoutMs: 10000, what: 'redis-server' },
      );
    } finally {
      probe.disconnect();
    }
  }

  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** A private six-node Redis Cluster; a restart brings it back empty on the same ports, as the seed list says. */
export class PrivateRedisCluster implements PrivateRedisTopology {
  private cluster?: StartedRedisCluster;
  private ports?: number[];
  private readonly dir = path.join(ROOT, '.data', `redis-cluster-${process.pid}`);

  get env(): Record<string, string> {
    if (!this.ports) throw new Error('the cluster has not been started');
    return { REDIS_CLUSTER_NODES: this.ports.map((port) => `127.0.0.1:${port}`).join(',') };
  }

  async start(): Promise<void> {
    this.cluster = await startRedisCluster({ dir: this.dir, ports: this.ports });
    this.ports = this.cluster.ports;
  }

  async kill(): Promise<void> {
    await this.cluster?.stop();
  }
}

/** A worker process (MIGRATION_ROLE=worker) started from the app's real entry point. */
export class WorkerProcess {
  private child?: ChildProcess;
  readonly output: string[] = [];
  kills = 0;
  /** True once the process printed its listening line: Nest is up and its BullMQ worker is running. */
  ready = false;

  constructor(private readonly env: Record<string, string>) {}

  start(): void {
    this.child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/migration-worker/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        LOG_LEVEL: 'warn',
        MIGRATION_ROLE: 'worker',
        SHUTDOWN_DRAIN_MS: '0',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.ready = false;
    this.child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on')) this.ready = true;
    });
    this.child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /** SIGKILL: no shutdown hook, no lock release, open transactions cut off mid-way. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.ready = false;
    this.kills += 1;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null && child.signalCode === null) await this.kill();
  }
}
