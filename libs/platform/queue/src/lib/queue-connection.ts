import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { createClusterClient, RedisSettings } from '@acme/platform-redis';

/**
 * The cluster connection BullMQ shares between the app's queues (BullMQ builds a cluster client only from an
 * instance); undefined on a single Redis, where BullMQ opens its own connections from options.
 */
export abstract class QueueClusterConnection {
  abstract readonly cluster?: Cluster;
}

@Injectable()
class QueueClusterLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly connection: QueueClusterConnection,
    private readonly discovery: DiscoveryService,
  ) {}

  /** BullMQ never closes a connection it was given: its queues and workers finish first, then it goes. */
  async onApplicationShutdown(): Promise<void> {
    const cluster = this.connection.cluster;
    if (!cluster) return;
    const closing = this.discovery.getProviders().map(({ instance }: { instance: unknown }) => {
      if (instance instanceof Queue || instance instanceof QueueEvents || instance instanceof Worker)
        return instance.close();
      if (instance instanceof WorkerHost) return Promise.resolve().then(() => instance.worker.close());
      return undefined;
    });
    await Promise.allSettled(closing);
    await cluster.quit().catch(() => cluster.disconnect());
  }
}

@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: QueueClusterConnection,
      inject: [RedisSettings],
      useFactory: (settings: RedisSettings): QueueClusterConnection => ({
        // BullMQ blocks on its connections and retries by itself: no per-command retry limit, no key prefix.
        cluster: settings.clusterNodes
          ? createClusterClient(settings, { name: 'bullmq', redisOptions: { maxRetriesPerRequest: null } })
          : undefined,
      }),
    },
    QueueClusterLifecycle,
  ],
  exports: [QueueClusterConnection],
})
export class QueueConnectionModule {}
