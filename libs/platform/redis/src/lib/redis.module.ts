import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RedisOptions, RedisSettings } from './redis.options';
import { RedisPubSub } from './redis-pubsub';

export interface RedisModuleAsyncOptions {
  imports?: DynamicModule['imports'];
  inject?: any[];
  useFactory: (...args: any[]) => RedisOptions | Promise<RedisOptions>;
}

export function createRedisClient(options: RedisOptions, name = 'redis'): Redis {
  const client = new Redis(options.url, {
    keyPrefix: `${options.prefix}:`,
    connectionName: name,
    // Commands fail fast while Redis is down so callers can fail open; reconnection keeps trying.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const logger = new Logger('Redis');
  client.on('error', (error) => logger.warn(`${name}: ${error.message}`));
  return client;
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Redis) private readonly client: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** Provides the app's ioredis client (token: the `Redis` class), its settings and prefixed pub/sub. */
@Global()
@Module({})
export class RedisModule {
  static forRootAsync(options: RedisModuleAsyncOptions): DynamicModule {
    return {
      module: RedisModule,
      imports: options.imports ?? [],
      providers: [
        { provide: RedisSettings, inject: options.inject as any[], useFactory: options.useFactory },
        { provide: Redis, inject: [RedisSettings], useFactory: (settings: RedisOptions) => createRedisClient(settings) },
        { provide: RedisPubSub, inject: [Redis, RedisSettings], useFactory: (client: Redis, s: RedisOptions) => new RedisPubSub(client, s.prefix) },
        RedisLifecycle,
      ],
      exports: [Redis, RedisSettings, RedisPubSub],
    };
  }
}
