import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { redisConnectionOptions, RedisSettings } from '@acme/platform-redis';
import { QueueClusterConnection, QueueConnectionModule } from './queue-connection';
import { QueueErrorLogger } from './queue-error-logger';
import { QueueMetrics } from './queue-metrics';

/**
 * BullMQ wiring on the app's Redis (server or cluster), with the app's prefix wrapped in a hash tag: BullMQ's
 * scripts touch several keys of a queue at once, which a cluster allows only within one slot.
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        BullModule.forRootAsync({
          imports: [QueueConnectionModule],
          inject: [RedisSettings, QueueClusterConnection],
          useFactory: (settings: RedisSettings, shared: QueueClusterConnection) => ({
            connection: shared.cluster ?? { ...redisConnectionOptions(settings), maxRetriesPerRequest: null },
            prefix: `{${settings.prefix}:bull}`,
          }),
        }),
      ],
      providers: [QueueErrorLogger, QueueMetrics],
      exports: [BullModule],
    };
  }
}
