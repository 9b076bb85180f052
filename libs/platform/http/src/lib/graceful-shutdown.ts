import type { Server } from 'node:http';
import { BaseEnv } from '@acme/platform-config';
import { ShutdownState } from '@acme/platform-observability';
import type { ServiceApplication } from './http-platform';

export interface ShutdownTimings {
  /** How long /health reports `draining` while requests are still served (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  /** From the signal to a forced end of the remaining connections and exit (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** Resolves when the server has no connection left, or at `deadline`. */
async function connectionsGone(server: Server, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const open = await new Promise<number>((resolve) =>
      server.getConnections((error, count) => resolve(error ? 0 : count)),
    );
    if (open === 0) return true;
    // A keep-alive socket whose last response just ended is idle now: close it before the client reuses it.
    server.closeIdleConnections();
    await sleep(Math.min(50, deadline - Date.now()));
  }
  return false;
}

/**
 * The stop sequence for both engines (docs/decisions.md#shutdown): report draining at once and keep serving for
 * `drainMs`; then refuse new connections, answer with `Connection: close` and close idle keep-alive sockets
 * while in-flight requests (uploads included) finish; at `timeoutMs` after the signal close what remains.
 * Then Nest's own shutdown (pools, Redis, queue workers) runs within the time left.
 */
export async function drainAndClose(
  app: ServiceApplication,
  timings: ShutdownTimings,
  log: (message: string) => void,
): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + timings.timeoutMs;
  app.get(ShutdownState, { strict: false }).draining = true;
  const server = app.getHttpServer() as Server;
  await sleep(Math.min(timings.drainMs, timings.timeoutMs));
  server.on('request', (_request, response) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  });
  server.close();
  server.closeIdleConnections();
  const drained = await connectionsGone(server, deadline);
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
