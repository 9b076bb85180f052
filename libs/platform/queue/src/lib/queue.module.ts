import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { redisConnectionOptions, RedisSettings } from '@acme/platform-redis';
import { QueueErrorLogger } from './queue-error-logger';

/**
 * BullMQ wiring on the app's Redis: the same URL, and the app's prefix wrapped in a hash tag so one
 * queue's keys stay on one Redis Cluster slot.
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        BullModule.forRootAsync({
          inject: [RedisSettings],
          useFactory: (settings: RedisSettings) => ({
            connection: { ...redisConnectionOptions(settings.url), maxRetriesPerRequest: null },
            prefix: `{${settings.prefix}:bull}`,
          }),
        }),
      ],
      providers: [QueueErrorLogger],
      exports: [BullModule],
    };
  }
}
