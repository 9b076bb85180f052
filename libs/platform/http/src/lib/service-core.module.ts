import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { AdminTokenSettings } from '@acme/platform-auth';
import { BaseEnv, EnvModule } from '@acme/platform-config';
import { HealthModule, LoggingModule, MetricsModule, MetricsRegistry } from '@acme/platform-observability';
import { MigrationClass, PersistenceModule } from '@acme/platform-persistence';
import { parseClusterNodes, RedisModule } from '@acme/platform-redis';
import { HeavyRouteBound } from './heavy-route';
import { ServiceDefinition } from './service-definition';

export interface ServiceCoreOptions<E extends BaseEnv> {
  service: ServiceDefinition;
  envClass: ClassConstructor<E>;
  /** Raw variables (process.env in main.ts, a plain record in tests), validated here... */
  source?: Record<string, unknown>;
  /** ...or the env the app already validated with `createEnvValidator(envClass)` (validated once either way). */
  env?: E;
  /** The Postgres schema this service owns. */
  schema: string;
  migrations: MigrationClass[];
}

/**
 * The plumbing every service shares: validated env, JSON logs, Postgres with its migrations applied,
 * Redis, /metrics, /health, and the operator token. The app module adds its feature modules beside it.
 */
@Module({})
export class ServiceCoreModule {
  static forRoot<E extends BaseEnv>(options: ServiceCoreOptions<E>): DynamicModule {
    const Env = options.envClass;
    return {
      module: ServiceCoreModule,
      global: true,
      imports: [
        options.env ? EnvModule.forValidated(Env, options.env) : EnvModule.forRoot(Env, options.source ?? {}),
        LoggingModule.forRootAsync({
          inject: [Env],
          useFactory: (env: E) => ({
            service: options.service.name,
            level: env.LOG_LEVEL,
            engine: options.service.platform,
          }),
        }),
        PersistenceModule.forRootAsync({
          inject: [Env],
          useFactory: (env: E) => ({
            url: env.DATABASE_URL,
            schema: options.schema,
            migrations: options.migrations,
            runMigrations: env.MIGRATIONS_RUN,
            applicationName: options.service.name,
            readUrls: env.DATABASE_READ_URLS?.split(',').map((url) => url.trim()),
            maxReplicaLagMs: env.DATABASE_MAX_REPLICA_LAG_MS,
            connectRetryMs: env.DATABASE_CONNECT_RETRY_MS,
          }),
        }),
        RedisModule.forRootAsync({
          inject: [Env],
          useFactory: (env: E) => ({
            url: env.REDIS_URL,
            prefix: env.REDIS_PREFIX,
            clusterNodes: env.REDIS_CLUSTER_NODES ? parseClusterNodes(env.REDIS_CLUSTER_NODES) : undefined,
          }),
        }),
        MetricsModule,
        HealthModule,
      ],
      providers: [
        { provide: BaseEnv, useExisting: Env },
        { provide: AdminTokenSettings, inject: [Env], useFactory: (env: E) => ({ adminToken: env.ADMIN_TOKEN }) },
        {
          provide: HeavyRouteBound,
          inject: [Env, MetricsRegistry],
          useFactory: (env: E, registry: MetricsRegistry) => new HeavyRouteBound(env.HEAVY_ROUTE_CONCURRENCY, registry),
        },
      ],
      exports: [BaseEnv, AdminTokenSettings, PersistenceModule, HeavyRouteBound],
    };
  }

  /** A service's root module: the kernel for `options`, then the app's own modules (and any root providers). */
  static forApp<E extends BaseEnv>(
    app: Type,
    options: ServiceCoreOptions<E>,
    modules: NonNullable<DynamicModule['imports']>,
    providers: Provider[] = [],
  ): DynamicModule {
    return { module: app, imports: [ServiceCoreModule.forRoot(options), ...modules], providers };
  }
}
