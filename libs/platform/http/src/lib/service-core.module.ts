import { readFileSync } from 'node:fs';
import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { AdminTokenSettings, MetricsTokenSettings } from '@acme/platform-auth';
import { BaseEnv, createEnvValidator, EnvModule } from '@acme/platform-config';
import { HealthModule, LoggingModule, MetricsModule, MetricsRegistry } from '@acme/platform-observability';
import { MigrationClass, PersistenceModule, PersistenceOptions, withDatabaseCa } from '@acme/platform-persistence';
import { parseClusterSeeds, RedisModule, RedisOptions } from '@acme/platform-redis';
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

/** PostgreSQL settings from the env: URLs verified against DATABASE_TLS_CA_FILE when it is set. */
export function persistenceOptions(
  env: BaseEnv,
  options: Pick<ServiceCoreOptions<BaseEnv>, 'schema' | 'migrations' | 'service'>,
): PersistenceOptions {
  return {
    url: withDatabaseCa(env.DATABASE_URL, env.DATABASE_TLS_CA_FILE),
    schema: options.schema,
    migrations: options.migrations,
    runMigrations: env.MIGRATIONS_RUN,
    applicationName: options.service.name,
    readUrls: env.DATABASE_READ_URLS?.split(',').map((url) => withDatabaseCa(url.trim(), env.DATABASE_TLS_CA_FILE)),
    maxReplicaLagMs: env.DATABASE_MAX_REPLICA_LAG_MS,
    connectRetryMs: env.DATABASE_CONNECT_RETRY_MS,
  };
}

/**
 * Redis settings from the env (docs/deploying.md#managed-redis): a server or cluster seeds, the ACL user and password
 * (from the URLs first), and TLS for `rediss://` or a CA bundle (REDIS_TLS_CA_FILE).
 */
export function redisOptions(env: BaseEnv): RedisOptions {
  const seeds = env.REDIS_CLUSTER_NODES ? parseClusterSeeds(env.REDIS_CLUSTER_NODES) : undefined;
  if (env.REDIS_CLUSTER_NODES && !seeds)
    throw new Error('REDIS_CLUSTER_NODES: the seeds must agree on redis:// or rediss:// and on the credentials');
  const ca = env.REDIS_TLS_CA_FILE ? readFileSync(env.REDIS_TLS_CA_FILE, 'utf8') : undefined;
  const secure = ca !== undefined || (seeds ? seeds.tls : env.REDIS_URL.startsWith('rediss:'));
  return {
    url: env.REDIS_URL,
    prefix: env.REDIS_PREFIX,
    clusterNodes: seeds?.nodes,
    username: seeds?.username ?? env.REDIS_USERNAME,
    password: seeds?.password ?? env.REDIS_PASSWORD,
    tls: secure ? (ca ? { ca } : {}) : undefined,
  };
}

/** What `node main.js migrate` needs of a service's root module, recorded when `forApp` builds it. */
const migrationTargets = new WeakMap<DynamicModule, PersistenceOptions>();

/** The PostgreSQL settings, schema and migrations of a root module built by `ServiceCoreModule.forApp`. */
export function migrationTarget(module: DynamicModule): PersistenceOptions | undefined {
  return migrationTargets.get(module);
}

/**
 * The plumbing every service shares: validated env, JSON logs, Postgres with its migrations applied,
 * Redis, /metrics, /health, and the operator token. The app module adds its feature modules beside it.
 */
@Module({})
export class ServiceCoreModule {
  static forRoot<E extends BaseEnv>(options: ServiceCoreOptions<E>): DynamicModule {
    return ServiceCoreModule.forValidatedEnv(ServiceCoreModule.validatedEnv(options), options);
  }

  private static validatedEnv<E extends BaseEnv>(options: ServiceCoreOptions<E>): E {
    return options.env ?? createEnvValidator(options.envClass)(options.source ?? {});
  }

  private static forValidatedEnv<E extends BaseEnv>(validated: E, options: ServiceCoreOptions<E>): DynamicModule {
    const Env = options.envClass;
    return {
      module: ServiceCoreModule,
      global: true,
      imports: [
        EnvModule.forValidated(Env, validated),
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
          useFactory: (env: E) => persistenceOptions(env, options),
        }),
        RedisModule.forRootAsync({ inject: [Env], useFactory: (env: E) => redisOptions(env) }),
        MetricsModule,
        HealthModule,
      ],
      providers: [
        { provide: BaseEnv, useExisting: Env },
        { provide: AdminTokenSettings, inject: [Env], useFactory: (env: E) => ({ adminToken: env.ADMIN_TOKEN }) },
        {
          provide: MetricsTokenSettings,
          inject: [Env],
          useFactory: (env: E) => ({ metricsToken: env.METRICS_TOKEN }),
        },
        {
          provide: HeavyRouteBound,
          inject: [Env, MetricsRegistry],
          useFactory: (env: E, registry: MetricsRegistry) => new HeavyRouteBound(env.HEAVY_ROUTE_CONCURRENCY, registry),
        },
      ],
      exports: [BaseEnv, AdminTokenSettings, MetricsTokenSettings, PersistenceModule, HeavyRouteBound],
    };
  }

  /** A service's root module: the kernel for `options`, then the app's own modules (and any root providers). */
  static forApp<E extends BaseEnv>(
    app: Type,
    options: ServiceCoreOptions<E>,
    modules: NonNullable<DynamicModule['imports']>,
    providers: Provider[] = [],
  ): DynamicModule {
    const env = ServiceCoreModule.validatedEnv(options);
    const root = {
      module: app,
      imports: [ServiceCoreModule.forValidatedEnv(env, options), ...modules],
      providers,
    };
    migrationTargets.set(root, persistenceOptions(env, options));
    return root;
  }
}
