import type autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix } from './database';
import { startOtlpSink } from './otlp-sink';
import { freePort, Processes, runBench, waitUntil } from './processes';

/** BENCH_NODE_ARGS: node arguments added to every app process of a tracing bench (a V8 log's, a GC trace's). */
export const BENCH_NODE_ARGS = (process.env['BENCH_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

/** One service's route under test. */
export interface TracedRoute {
  /** Database and Redis prefix names of the run (`bench_<name>`, `bench:<name>`). */
  name: string;
  /** The route and its load, as the report's first line says it (e.g. `POST /oauth/token, no policy`). */
  title: string;
  /** The app's environment on the run's database and Redis prefix (tracing settings are added per variant). */
  env(run: { databaseUrl: string; redisPrefix: string }): Record<string, string>;
  /** Starts one app process with the services' V8 flags and `nodeArgs` (a profiler's) before its entry. */
  start(processes: Processes, nodeArgs: string[], env: Record<string, string>): ChildProcess;
  /** Once the first process is healthy: what the load needs (a project, users, tokens), on its URL and database. */
  prepare?(run: { url: string; databaseUrl: string }): Promise<void>;
  /** autocannon's options for the route on `base` over `connections` connections. */
  load(base: string, connections: number): autocannon.Options;
}

/** What a run of `route` holds: its database, its OTLP sink, its processes and the app's base environment. */
export interface TracedRun {
  databaseUrl: string;
  sink: Awaited<ReturnType<typeof startOtlpSink>>;
  processes: Processes;
  env: Record<string, string>;
}

/** Runs `body` on a fresh database, Redis prefix and OTLP sink for `route`, and removes them (and its processes) after. */
export function runTracedRoute(route: TracedRoute, kind: string, body: (run: TracedRun) => Promise<void>): void {
  runBench(async () => {
    const database = await createBenchDatabase(`bench_${route.name}_${kind}`);
    const prefix = benchRedisPrefix(`bench:${route.name}-${kind}`);
    const sink = await startOtlpSink();
    const processes = new Processes();
    try {
      const env = route.env({ databaseUrl: database.url, redisPrefix: prefix });
      await body({ databaseUrl: database.url, sink, processes, env });
    } finally {
      sink.close();
      await processes.stopAll();
      await Promise.all([database.drop(), deleteRedisPrefix(prefix)]);
    }
  });
}

/** Starts one app process of `route` on a free port and waits until it answers `/health`. */
export async function startHealthy(
  route: TracedRoute,
  processes: Processes,
  nodeArgs: string[],
  env: Record<string, string>,
): Promise<{ server: ChildProcess; url: string }> {
  const port = await freePort();
  const server = route.start(processes, nodeArgs, { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => server.exitCode === null && (await fetch(`${url}/health`)).status === 200, url);
  return { server, url };
}
