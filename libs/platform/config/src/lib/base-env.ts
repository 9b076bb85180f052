import { IsIn, IsOptional, IsString, IsUrl, Matches, MinLength } from 'class-validator';
import { IsCidrList } from './cidr-list';
import { EnvBool, EnvInt, Secret } from './env-decorators';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Variables every service reads (root README, Services and Configuration). Apps extend it with their own. */
export class BaseEnv {
  /** `production` refuses every `@DevelopmentDefault()` variable left at its built-in value. */
  @IsString()
  @IsOptional()
  NODE_ENV?: string;

  @EnvInt({ min: 0, max: 65535, optional: true })
  PORT?: number;

  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

  /** Streaming replicas `url,url` for reads that tolerate replication lag (docs/decisions.md#read-replicas). */
  @Matches(/^postgres(ql)?:\/\/[^,\s]+(,\s*postgres(ql)?:\/\/[^,\s]+)*$/, {
    message: 'DATABASE_READ_URLS must be postgres:// URLs separated by commas',
  })
  @IsOptional()
  DATABASE_READ_URLS?: string;

  /**
   * PEM CA bundle that signs the PostgreSQL servers' certificates (a managed service's root CA). Applies to
   * DATABASE_URL and DATABASE_READ_URLS; `sslmode` in a URL is honoured, verify-full when the URL names none
   * (docs/deploying.md#managed-postgresql).
   */
  @IsString()
  @IsOptional()
  DATABASE_TLS_CA_FILE?: string;

  /** A replica further behind than this serves no reads until it catches up. */
  @EnvInt({ min: 0, max: 3_600_000 })
  DATABASE_MAX_REPLICA_LAG_MS = 1000;

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Seed nodes of a Redis Cluster, `host:port` or `redis[s]://[user:pass@]host:port`, separated by commas; when set,
   * every Redis use goes to the cluster and REDIS_URL is ignored. `rediss://` seeds: TLS to every node.
   */
  @Matches(
    /^\s*(rediss?:\/\/([^\s@,/]+@)?)?[\w.-]+:\d{1,5}\/?\s*(,\s*(rediss?:\/\/([^\s@,/]+@)?)?[\w.-]+:\d{1,5}\/?\s*)*$/,
    {
      message:
        'REDIS_CLUSTER_NODES must be host:port pairs or redis[s]://[user:password@]host:port URLs separated by commas',
    },
  )
  @IsOptional()
  REDIS_CLUSTER_NODES?: string;

  /** ACL user for Redis (server and cluster); a user in REDIS_URL or a seed URL wins. */
  @IsString()
  @IsOptional()
  REDIS_USERNAME?: string;

  /** Redis AUTH password (server and cluster); a password in REDIS_URL or a seed URL wins. */
  @IsString()
  @IsOptional()
  REDIS_PASSWORD?: string;

  /** PEM CA bundle that signs the Redis servers' certificates; implies TLS (as `rediss://`). */
  @IsString()
  @IsOptional()
  REDIS_TLS_CA_FILE?: string;

  /** Prefix for every Redis key and queue of this deployment (tests give each file its own). */
  @IsString()
  REDIS_PREFIX = 'acme';

  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @IsOptional()
  PUBLIC_URL?: string;

  /**
   * The load balancers and reverse proxies in front of the service (IP addresses or CIDR blocks, commas between),
   * the only hops whose `X-Forwarded-For` is believed; none by default (docs/decisions.md#client-addresses-and-the-operator-surface).
   */
  @IsCidrList()
  @IsOptional()
  TRUSTED_PROXIES?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  @Secret()
  @IsOptional()
  ADMIN_TOKEN?: string;

  /** When set, `/metrics` answers only `Authorization: Bearer $METRICS_TOKEN` (README, Metrics). */
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  @Secret()
  @IsOptional()
  METRICS_TOKEN?: string;

  @EnvBool()
  MIGRATIONS_RUN = true;

  /**
   * How long start-up keeps retrying (with back-off) a PostgreSQL that cannot be reached yet; a database that
   * does not exist or refused the login fails at once (docs/operations.md).
   */
  @EnvInt({ min: 0, max: 600_000 })
  DATABASE_CONNECT_RETRY_MS = 30_000;

  /**
   * Requests of one heavy operator route (document import, migration start) an instance runs at once; past it
   * they are answered 503 "busy" with Retry-After at once (docs/operations.md).
   */
  @EnvInt({ min: 1, max: 1000 })
  HEAVY_ROUTE_CONCURRENCY = 4;

  /** On SIGTERM, how long /health answers 503 `draining` while requests are still served (docs/decisions.md#shutdown). */
  @EnvInt({ min: 0, max: 600_000 })
  SHUTDOWN_DRAIN_MS = 5000;

  /** From SIGTERM to closing the remaining connections and exiting. */
  @EnvInt({ min: 0, max: 600_000 })
  SHUTDOWN_TIMEOUT_MS = 20_000;
}
