import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap, Optional, Inject } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Job, Queue, Worker } from 'bullmq';
import { Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * Queue depth by state (read from Redis at scrape time, for every queue the app holds) and the duration of each
 * job this process ran, by queue, job name and outcome (docs/operations.md).
 */
@Injectable()
export class QueueMetrics implements OnApplicationBootstrap {
  private readonly queues: Queue[] = [];
  private readonly duration?: Histogram<'queue' | 'name' | 'outcome'>;

  constructor(
    private readonly discovery: DiscoveryService,
    @Optional() @Inject(MetricsRegistry) registry: MetricsRegistry | null,
  ) {
    if (!registry) return;
    const queues = this.queues;
    new Gauge({
      name: 'bullmq_queue_jobs',
      help: 'Jobs in each queue by state',
      labelNames: ['queue', 'state'],
      registers: [registry],
      async collect() {
        for (const queue of queues) {
          try {
            const counts = await queue.getJobCounts(...STATES);
            for (const state of STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          } catch {
            // Redis away during a scrape: keep the last values rather than failing /metrics.
          }
        }
      },
    });
    this.duration = new Histogram({
      name: 'bullmq_job_duration_seconds',
      help: 'Time from a job starting to run in this process to its end, by queue, job name and outcome',
      labelNames: ['queue', 'name', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    if (!this.duration) return;
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof Queue) this.queues.push(instance);
      else if (instance instanceof WorkerHost) {
        try {
          this.observe(instance.worker);
        } catch {
          // A processor whose worker was not started has no jobs to time.
        }
      }
    }
  }

  private observe(worker: Worker): void {
    const record = (job: Job | undefined, outcome: string) => {
      if (!job?.processedOn) return;
      const seconds = ((job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
      this.duration?.observe({ queue: worker.name, name: job.name, outcome }, seconds);
    };
    worker.on('completed', (job) => record(job, 'completed'));
    worker.on('failed', (job) => record(job, 'failed'));
  }
}
