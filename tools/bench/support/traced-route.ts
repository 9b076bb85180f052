import type autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import type { Processes } from './processes';

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
