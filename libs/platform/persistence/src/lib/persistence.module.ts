import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions, PersistenceOptions } from './data-source';
import { initializeAtStart } from './connect-at-start';
import { runMigrationsUnderLock } from './migrations-runner';
import { markOverloadOn, PoolMetrics, poolOf } from './pool-load';
import { ReadReplicas } from './read-replicas';

export interface PersistenceModuleAsyncOptions {
  imports?: DynamicModule['imports'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => PersistenceOptions | Promise<PersistenceOptions>;
}

/** Carried from the options factory to the data-source factory, which TypeORM's module calls separately. */
const PERSISTENCE = Symbol('persistence');
type WithPersistence = DataSourceOptions & { [PERSISTENCE]?: PersistenceOptions };

/**
 * The app's Postgres primary (entities registered by domain modules, migrations applied before use) and its
 * read replicas, if any (ReadReplicas).
 */
@Module({})
export class PersistenceModule {
  static forRootAsync(options: PersistenceModuleAsyncOptions): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: options.imports,
          inject: options.inject,
          useFactory: async (...args: unknown[]) => {
            const persistence = await options.useFactory(...args);
            return {
              ...dataSourceOptions(persistence),
              autoLoadEntities: true,
              // Retries are ours (initializeAtStart): with back-off, and none for what cannot heal by waiting.
              toRetry: () => false,
              [PERSISTENCE]: persistence,
            };
          },
          dataSourceFactory: async (typeormOptions) => {
            const persistence = (typeormOptions as WithPersistence)[PERSISTENCE];
            const dataSource = await initializeAtStart(
              typeormOptions as DataSourceOptions,
              persistence?.connectRetryMs ?? 30_000,
            );
            const pool = poolOf(dataSource);
            if (pool) markOverloadOn(pool, 'primary');
            if (persistence && persistence.runMigrations !== false)
              await runMigrationsUnderLock(dataSource, persistence.schema);
            return dataSource;
          },
        }),
      ],
      providers: [
        {
          provide: ReadReplicas,
          inject: [getDataSourceToken()],
          useFactory: (primary: DataSource) => {
            // The options the data source was built from, carried on it: the app's factory runs once.
            const persistence = (primary.options as WithPersistence)[PERSISTENCE];
            const replicas = new ReadReplicas(primary, primary.options, {
              urls: persistence?.readUrls ?? [],
              maxLagMs: persistence?.maxReplicaLagMs ?? 1000,
            });
            // Measured in the background: an unreachable replica must not delay the start.
            void replicas.checkAll();
            return replicas;
          },
        },
        PoolMetrics,
      ],
      exports: [TypeOrmModule, ReadReplicas],
    };
  }
}
