import type { Server } from 'node:http';
import { BaseEnv } from '@acme/platform-config';
import { ShutdownState } from '@acme/platform-observability';
import type { ServiceApplication } from './http-platform';
import { ConnectionWatch } from './keep-alive-drain';

export interface ShutdownTimings {
  /** How long /health reports `draining` while requests are still served (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  /** From the signal to a forced end of the remaining connections and exit (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** Resolves when the server has no connection left, or at `deadline`. */
async function connectionsGone(connections: ConnectionWatch, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    if (connections.open === 0) return true;
    // Every answer since the signal said `close`, so each socket still answering ends itself once done.
    await sleep(Math.min(50, deadline - Date.now()));
  }
  return false;
}

/**
 * The stop sequence for both engines (docs/decisions.md#shutdown): report draining at once and keep serving for
 * `drainMs`, every answer saying `Connection: close`; then refuse new connections and close the keep-alive sockets
 * idle since the drain began while in-flight requests (uploads included) finish; at `timeoutMs` after the signal
 * close what remains. No socket is closed under a client told it may reuse it: 0 resets (docs/operations.md).
 * Then Nest's own shutdown (pools, Redis, queue workers) runs within the time left.
 */
export async function drainAndClose(
  app: ServiceApplication,
  connections: ConnectionWatch,
  timings: ShutdownTimings,
  log: (message: string) => void,
): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + timings.timeoutMs;
  app.get(ShutdownState, { strict: false }).draining = true;
  const server = app.getHttpServer() as Server;
  connections.beginDrain();
  await sleep(Math.min(timings.drainMs, timings.timeoutMs));
  connections.stopAccepting();
  const drained = await connectionsGone(connections, deadline);
  if (!drained) {
    log(`shutdown: connections still open after ${timings.timeoutMs} ms; closing them`);
    server.closeAllConnections();
  }
  let timer: NodeJS.Timeout | undefined;
  const left = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(1000, deadline - Date.now()))));
  await Promise.race([app.close(), left]).finally(() => clearTimeout(timer));
  log(`shutdown: done in ${Date.now() - startedAt} ms`);
}

export function shutdownTimings(env: BaseEnv): ShutdownTimings {
  return { drainMs: env.SHUTDOWN_DRAIN_MS, timeoutMs: env.SHUTDOWN_TIMEOUT_MS };
}
