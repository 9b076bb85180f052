import type { Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, DataSourceOptions, EntityManager, EntitySchema, MigrationInterface } from 'typeorm';

export type MigrationClass = new (...args: never[]) => MigrationInterface;
export type EntityClass = new (...args: never[]) => object;
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface PersistenceOptions {
  url: string;
  /** The service's own schema; its migrations table lives there too. */
  schema: string;
  migrations: MigrationClass[];
  entities?: (EntityClass | EntitySchema)[];
  /** Apply pending migrations (under an advisory lock) when the data source starts. */
  runMigrations?: boolean;
  poolSize?: number;
  applicationName?: string;
  /** Streaming replicas for reads that tolerate lag (DATABASE_READ_URLS); see ReadReplicas. */
  readUrls?: string[];
  maxReplicaLagMs?: number;
  /** How long start-up retries a PostgreSQL it cannot reach yet (DATABASE_CONNECT_RETRY_MS). */
  connectRetryMs?: number;
}

/** Options shared by the app's TypeORM module and the migration CLI; never `synchronize`. */
export function dataSourceOptions(options: PersistenceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations,
    migrationsTableName: 'typeorm_migrations',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    applicationName: options.applicationName,
    // A pool checkout never hangs on an unreachable server: it fails and the request answers 503.
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5000 },
  };
}

/** For the TypeORM CLI: `typeorm migration:run -d <file exporting createDataSource(...)>`. */
export function createDataSource(options: PersistenceOptions): DataSource {
  return new DataSource(dataSourceOptions(options));
}

/**
 * The pg pool under a data source's Postgres driver: hot queries go straight to it, skipping the query runner
 * TypeORM creates, connects and releases around every `query()` (same pool, same rows).
 */
function driverPool(db: DataSource): Pool {
  return (db.driver as unknown as { master: Pool }).master;
}

/**
 * The rows of one statement (`RETURNING` rows for writes). Given a DataSource, or a manager outside any
 * transaction, it goes straight to the pool (no query runner); given a transaction's manager, it runs on
 * that transaction's connection. A statement object may name the statement (prepared once per connection)
 * and give its own type parsers.
 */
export async function queryRows<T>(
  db: DataSource | EntityManager,
  statement: string | QueryConfig,
  values: unknown[] = [],
): Promise<T[]> {
  const config: QueryConfig = typeof statement === 'string' ? { text: statement, values } : { ...statement, values };
  const runner = db instanceof DataSource ? undefined : db.queryRunner;
  if (runner) {
    if (typeof statement === 'string')
      return ((await runner.query(statement, values, true)) as { records: T[] }).records;
    return (await (runner.connect() as Promise<PoolClient>)).query(config).then((result) => result.rows as T[]);
  }
  const source = db instanceof DataSource ? db : db.connection;
  return (await driverPool(source).query(config)).rows as T[];
}
