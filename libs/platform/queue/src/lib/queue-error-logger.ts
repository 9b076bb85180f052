import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue, QueueEvents, Worker } from 'bullmq';

type Emitter = Queue | Worker | QueueEvents;

/**
 * BullMQ prints errors nobody listens for with console.error (raw stacks on stderr, e.g. "Missing key for job"
 * once Redis lost its data). Every queue and worker of the app gets a listener that writes them through the
 * service logger as JSON instead, at most one line per source every 10 s while they repeat (a Redis outage).
 */
@Injectable()
export class QueueErrorLogger implements OnApplicationBootstrap {
  private readonly logger = new Logger('BullMQ');
  private readonly lastLogged = new Map<string, { at: number; suppressed: number }>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof Queue || instance instanceof QueueEvents || instance instanceof Worker)
        this.listen(instance);
      else if (instance instanceof WorkerHost) {
        try {
          this.listen(instance.worker);
        } catch {
          // A processor whose worker was not started (autorun off) has nothing to listen to.
        }
      }
    }
  }

  private listen(emitter: Emitter): void {
    const source = `${emitter.constructor.name} ${emitter.name}`;
    (emitter as Worker).on('error', (error: Error) => this.report(source, error));
  }

  private report(source: string, error: Error): void {
    const now = Date.now();
    const last = this.lastLogged.get(source);
    if (last && now - last.at < 10_000) {
      last.suppressed += 1;
      return;
    }
    this.lastLogged.set(source, { at: now, suppressed: 0 });
    this.logger.error(
      { event: 'queue_error', source, err: error, repeatedSinceLastLine: last?.suppressed ?? 0 },
      `${source}: ${error.message}`,
    );
  }
}
