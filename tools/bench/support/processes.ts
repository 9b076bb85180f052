/**
 * Child processes for benchmarks: free ports, starting a service (or a raw baseline server) with node, waiting
 * until it answers, reading its CPU time and memory from /proc, and stopping everything that was started.
 */
import { ChildProcess, spawn, StdioOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { allocatorEnv } from '../../launcher/allocator.cjs';

/** The workspace root: children run from here so `apps/...` entry points and `@swc-node/register` resolve. */
export const ROOT = join(__dirname, '..', '..', '..');

/** The V8 flags services run with (tools/launcher/node-flags.json); benchmarks give them to the raw baselines too. */
export const SERVICE_NODE_FLAGS: string[] = JSON.parse(
  readFileSync(join(ROOT, 'tools/launcher/node-flags.json'), 'utf8'),
).service;

/**
 * The allocator every service runs with (tools/launcher/allocator.cjs, the launchers' module): jemalloc preloaded
 * where installed, else glibc capped at two arenas. `Processes.start` gives it to every child, raw baselines included.
 */
export const ALLOCATOR_ENV: Record<string, string> = allocatorEnv();

/** `--name <number>` from the command line, else `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const localUrl = (port: number) => `http://127.0.0.1:${port}`;

/** Node arguments that run a TypeScript entry point from sources, e.g. `tsEntry('apps/rum-ingestion/src/main.ts')`. */
export const tsEntry = (path: string) => ['-r', '@swc-node/register', path];

export interface StartOptions {
  /** Default: stdout ignored, stderr shown. */
  stdio?: StdioOptions;
}

/** Every process a benchmark starts, so one `stopAll()` in `finally` ends them whatever happened. */
export class Processes {
  readonly children: ChildProcess[] = [];

  /** `node <args>` from the workspace root, with `env` over the current environment over the services' allocator. */
  start(args: string[], env: Record<string, string>, options: StartOptions = {}): ChildProcess {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...ALLOCATOR_ENV, ...process.env, ...env },
      stdio: options.stdio ?? ['ignore', process.env['BENCH_STDOUT'] ? 'inherit' : 'ignore', 'inherit'],
    });
    this.children.push(child);
    return child;
  }

  /** SIGTERM to all, then waits for them to exit (SIGKILL to those still running after `graceMs`). */
  async stopAll(graceMs = 10_000): Promise<void> {
    const running = this.children.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of running) child.kill('SIGTERM');
    const timer = setTimeout(() => running.forEach((child) => child.kill('SIGKILL')), graceMs);
    await Promise.all(exited);
    clearTimeout(timer);
  }

  /** For a crash path that cannot await. */
  killAll(): void {
    for (const child of this.children) child.kill('SIGKILL');
  }
}

/** Polls `probe` every 200 ms (a throwing probe counts as "not yet") until it holds or `timeoutMs` passes. */
export async function waitUntil(probe: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until `GET {base}/health` answers 200. */
export const waitForHealth = (base: string, what: string, timeoutMs?: number) =>
  waitUntil(async () => (await fetch(`${base}/health`)).status === 200, what, timeoutMs);

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN when unknown. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** utime + stime of a /proc stat line, in seconds (the fields after the `(comm)`, which may hold spaces). */
const statCpuSeconds = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** CPU seconds per thread group of a process: `main`, V8's worker threads, libuv's pool, and the rest. */
export function threadCpuSeconds(pid: number): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // Thread names as Node 22+ sets them: node-MainThread, node-V8Worker (GC helpers, compilers), libuv-worker.
    const group = task === String(pid) ? 'main' : /V8Worker/.test(name) ? 'v8' : /libuv/.test(name) ? 'libuv' : 'other';
    groups[group] = (groups[group] ?? 0) + statCpuSeconds(stat);
  }
  return groups;
}

/** Resident memory (VmRSS) or its peak so far (VmHWM) of a process, in bytes, from /proc (Linux). */
export function memoryBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
}

/** Runs a benchmark's `main`: its error goes to stderr with a failing exit code, after its own clean-up ran. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
