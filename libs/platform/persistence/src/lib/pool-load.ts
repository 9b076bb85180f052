import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, Overload } from '@acme/platform-errors';
import { eventLoopDelay, MetricsRegistry } from '@acme/platform-observability';
import { ReadReplicas } from './read-replicas';

/** Past this event-loop delay (p99 over the last seconds) the process itself is behind: one sign of saturation. */
const OVERLOADED_LOOP_MS = 100;

interface PoolState {
  size: number;
  open: number;
  inUse: number;
  waiting: number;
}

/** The pg pool under a TypeORM data source (undefined before it is initialized). */
export function poolOf(source: DataSource): Pool | undefined {
  return (source.driver as unknown as { master?: Pool }).master;
}

function stateOf(pool: Pool): PoolState {
  const size = (pool as unknown as { options: { max: number } }).options.max;
  return { size, open: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount };
}

/** How recently a query must have completed for PostgreSQL to count as answering (at least the checkout timeout). */
const ANSWERING_WITHIN_MS = 5000;

/**
 * The overload a pool failure reveals. "Busy" needs both halves: PostgreSQL still answers (a connection came back
 * healthy within the window, i.e. while the failed checkout waited) AND this instance is saturated (every
 * connection in use, callers queued, or the event loop far behind). A full pool whose connections all hang is
 * PostgreSQL's fault, and a slow event loop alone proves nothing about PostgreSQL: no overload either way.
 */
function overloadNow(name: string, pool: Pool, lastAnswerAt: number): Overload | undefined {
  const { size, inUse, waiting } = stateOf(pool);
  const window = Math.max(ANSWERING_WITHIN_MS, checkoutTimeoutOf(pool));
  if (Date.now() - lastAnswerAt >= window) return undefined;
  const eventLoopDelayMs = eventLoopDelay().recentMs();
  if (waiting > 0 || inUse >= size || eventLoopDelayMs >= OVERLOADED_LOOP_MS)
    return { pool: name, size, inUse, waiting, eventLoopDelayMs };
  return undefined;
}

function checkoutTimeoutOf(pool: Pool): number {
  return (pool as unknown as { options: { connectionTimeoutMillis?: number } }).options.connectionTimeoutMillis ?? 0;
}

type ConnectCallback = (error: Error | undefined, client?: PoolClient, release?: (error?: unknown) => void) => void;

/**
 * Marks each checkout or connect timeout of `pool` raised while this instance was saturated with an `overload`
 * field, so it answers "busy" (scale out) rather than "unavailable" (check PostgreSQL): docs/operations.md.
 * A refused connection or a PostgreSQL shutting down carries no mark whatever the load.
 */
export function markOverloadOn(pool: Pool, name: string): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<PoolClient> | void;
  // A client released without an error finished its queries: PostgreSQL answered. A broken one proves nothing.
  let lastAnswerAt = 0;
  pool.on('release', (error: unknown) => {
    if (!error) lastAnswerAt = Date.now();
  });
  const mark = (error: unknown) => {
    if (!isTimeout(error)) return;
    const overload = overloadNow(name, pool, lastAnswerAt);
    if (overload) Object.assign(error as object, { overload });
  };
  (pool as unknown as { connect: typeof connect }).connect = (callback?: ConnectCallback) => {
    if (callback)
      return connect((error, client, release) => {
        if (error) mark(error);
        callback(error, client, release);
      });
    return (connect() as Promise<PoolClient>).catch((error: unknown) => {
      mark(error);
      throw error;
    });
  };
}

/** A checkout or connect that ran out of time (pg-pool's and pg's own messages), not a refusal. */
function isTimeout(error: unknown): boolean {
  const message = (error as { message?: unknown })?.message;
  return (
    isDatabaseUnavailable(error) &&
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|connection timeout/i.test(message)
  );
}

/** Size, connections in use and requests waiting per pool (primary and replicas), read at scrape time. */
@Injectable()
export class PoolMetrics {
  constructor(
    @Optional() @Inject(MetricsRegistry) registry: MetricsRegistry | null,
    @InjectDataSource() primary: DataSource,
    replicas: ReadReplicas,
  ) {
    // A data source outside a service (the migration CLI, a lib's own test) publishes nothing.
    if (!registry) return;
    const pools = () => [
      { name: 'primary', pool: poolOf(primary) },
      ...replicas.sources().map(({ url, source }) => ({ name: `replica ${new URL(url).host}`, pool: poolOf(source) })),
    ];
    const gauge = (name: string, help: string, read: (state: PoolState) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [registry],
        collect() {
          for (const { name: pool, pool: pg } of pools()) if (pg) this.set({ pool }, read(stateOf(pg)));
        },
      });
    gauge('db_pool_size', 'Most connections the pool may open', (state) => state.size);
    gauge('db_pool_connections_open', 'Connections the pool holds open', (state) => state.open);
    gauge('db_pool_connections_in_use', 'Connections checked out of the pool', (state) => state.inUse);
    gauge('db_pool_waiting_requests', 'Checkouts queued for a free connection', (state) => state.waiting);
  }
}
