import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { isDatabaseUnavailable } from '@acme/platform-errors';

export interface ReadReplicaOptions {
  /** Streaming replicas of the primary (DATABASE_READ_URLS). */
  urls: string[];
  /** A replica further behind than this serves no reads until it catches up (DATABASE_MAX_REPLICA_LAG_MS). */
  maxLagMs: number;
  /** How often each replica's reachability and lag are measured. */
  checkIntervalMs?: number;
}

/** Where `read` sent a query, and why (the `target` and `reason` of db_read_routed). */
export type ReadRoute =
  | { target: 'replica'; url: string }
  | { target: 'primary'; reason: 'no-replicas' | 'replicas-unfit' | 'replica-failed' };

interface Replica {
  url: string;
  source: DataSource;
  fit: boolean;
  lagMs?: number;
}

// Zero when everything received is replayed (an idle primary sends nothing); else the age of the last replay.
const LAG_SQL = `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE coalesce(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 0) END::float8 AS "lag"`;

/**
 * Reads that tolerate replication lag go to the replicas, round robin; the primary serves them when no replica
 * is reachable and within the lag limit, and retries a read whose replica failed under it, so a replica that
 * stops costs no request (docs/decisions.md#read-replicas). Reads that must see the caller's own writes never
 * come here.
 */
export class ReadReplicas implements OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplicas.name);
  private readonly replicas: Replica[];
  private next = 0;
  private timer?: NodeJS.Timeout;
  /** The last routing decision, for tests and the debug log. */
  lastRoute?: ReadRoute;

  constructor(
    private readonly primary: DataSource,
    primaryOptions: DataSourceOptions,
    private readonly options: ReadReplicaOptions,
  ) {
    this.replicas = options.urls.map((url) => ({
      url,
      fit: false,
      source: new DataSource({ ...primaryOptions, url, migrationsRun: false } as DataSourceOptions),
    }));
    if (this.replicas.length > 0) {
      this.timer = setInterval(() => void this.checkAll(), options.checkIntervalMs ?? 1000);
      this.timer.unref();
    }
  }

  /** Each replica's URL and data source (pool metrics). */
  sources(): Array<{ url: string; source: DataSource }> {
    return this.replicas.map(({ url, source }) => ({ url, source }));
  }

  /** Measures every replica now (the timer does this once a second). */
  async checkAll(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => this.check(replica)));
  }

  async read<T>(work: (db: DataSource) => Promise<T>): Promise<T> {
    const replica = this.pick();
    if (!replica) {
      this.lastRoute = { target: 'primary', reason: this.replicas.length === 0 ? 'no-replicas' : 'replicas-unfit' };
      return work(this.primary);
    }
    try {
      const result = await work(replica.source);
      this.lastRoute = { target: 'replica', url: replica.url };
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      replica.fit = false;
      this.logger.warn(
        { event: 'replica_failed', err: error },
        'a read replica failed; the primary answers until it is back',
      );
      this.lastRoute = { target: 'primary', reason: 'replica-failed' };
      return work(this.primary);
    }
  }

  private pick(): Replica | undefined {
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      const replica = this.replicas[this.next];
      this.next = (this.next + 1) % this.replicas.length;
      if (replica.fit) return replica;
    }
    return undefined;
  }

  private async check(replica: Replica): Promise<void> {
    try {
      if (!replica.source.isInitialized) await replica.source.initialize();
      const [{ lag }]: { lag: number }[] = await replica.source.query(LAG_SQL);
      replica.lagMs = lag;
      replica.fit = lag <= this.options.maxLagMs;
    } catch {
      replica.fit = false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(
      this.replicas.map((replica) => (replica.source.isInitialized ? replica.source.destroy() : undefined)),
    );
  }
}
