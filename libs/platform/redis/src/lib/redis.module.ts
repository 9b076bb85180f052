import { ConfigurableModuleBuilder, Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { createRedisClient, InjectRedis, REDIS_CLIENT, type RedisClient } from './redis-client';
import { RedisOptions, RedisSettings } from './redis.options';
import { RedisPubSub } from './redis-pubsub';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<RedisOptions>()
  .setClassMethodName('forRoot')
  .build();

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@InjectRedis() private readonly client: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/**
 * Provides the app's Redis connection (REDIS_CLIENT: a server or a cluster), its settings and prefixed pub/sub.
 * Global: platform plumbing every module's infrastructure reaches for, configured once by ServiceCoreModule.
 */
@Global()
@Module({
  providers: [
    { provide: RedisSettings, useExisting: MODULE_OPTIONS_TOKEN },
    {
      provide: REDIS_CLIENT,
      inject: [RedisSettings],
      useFactory: (settings: RedisOptions) => createRedisClient(settings),
    },
    {
      provide: RedisPubSub,
      inject: [REDIS_CLIENT, RedisSettings],
      useFactory: (client: RedisClient, s: RedisOptions) => new RedisPubSub(client, s.prefix),
    },
    RedisLifecycle,
  ],
  exports: [REDIS_CLIENT, RedisSettings, RedisPubSub],
})
export class RedisModule extends ConfigurableModuleClass {}
