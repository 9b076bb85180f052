import { DynamicModule, Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { createRedisClient, InjectRedis, REDIS_CLIENT, type RedisClient } from './redis-client';
import { RedisOptions, RedisSettings } from './redis.options';
import { RedisPubSub } from './redis-pubsub';

export interface RedisModuleAsyncOptions {
  imports?: DynamicModule['imports'];
  inject?: any[];
  useFactory: (...args: any[]) => RedisOptions | Promise<RedisOptions>;
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@InjectRedis() private readonly client: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** Provides the app's Redis connection (REDIS_CLIENT: a server or a cluster), its settings and prefixed pub/sub. */
@Global()
@Module({})
export class RedisModule {
  static forRootAsync(options: RedisModuleAsyncOptions): DynamicModule {
    return {
      module: RedisModule,
      imports: options.imports ?? [],
      providers: [
        { provide: RedisSettings, inject: options.inject as any[], useFactory: options.useFactory },
        { provide: REDIS_CLIENT, inject: [RedisSettings], useFactory: (settings: RedisOptions) => createRedisClient(settings) },
        { provide: RedisPubSub, inject: [REDIS_CLIENT, RedisSettings], useFactory: (client: RedisClient, s: RedisOptions) => new RedisPubSub(client, s.prefix) },
        RedisLifecycle,
      ],
      exports: [REDIS_CLIENT, RedisSettings, RedisPubSub],
    };
  }
}
