import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Job, Queue } from 'bullmq';
import { RedisModule } from '@acme/platform-redis';
import { createTestRedisPrefix, testRedisOptions, waitFor } from '@acme/platform-test-infra';
import { BullModule } from '@nestjs/bullmq';
import { MetricsModule, MetricsRegistry } from '@acme/platform-observability';
import { QueueModule } from './queue.module';

const processed: string[] = [];

@Processor('probe-queue')
class ProbeProcessor extends WorkerHost {
  async process(job: Job<{ value: string }>): Promise<string> {
    processed.push(job.data.value);
    return job.data.value.toUpperCase();
  }
}

@Injectable()
class ProbeProducer {
  constructor(@InjectQueue('probe-queue') readonly queue: Queue) {}
}

@Module({ imports: [BullModule.registerQueue({ name: 'probe-queue' })], providers: [ProbeProcessor, ProbeProducer] })
class ProbeModule {}

describe('QueueModule (real Redis)', () => {
  const prefix = createTestRedisPrefix('queue');

  it('runs jobs on the app Redis under the deployment prefix, with deterministic ids deduplicated', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RedisModule.forRootAsync({ useFactory: () => testRedisOptions(prefix) }),
        QueueModule.forRoot(),
        ProbeModule,
      ],
    }).compile();
    const app = await moduleRef.init();
    try {
      const { queue } = app.get(ProbeProducer);
      expect(queue.opts.prefix).toBe(`{${prefix}:bull}`);
      await queue.add('probe', { value: 'a' }, { jobId: 'fixed-1' });
      await queue.add('probe', { value: 'a-again' }, { jobId: 'fixed-1' });
      await waitFor(async () => (await queue.getJobState('fixed-1')) === 'completed', { what: 'job completion' });
      const job = (await queue.getJob('fixed-1'))!;
      expect(job.returnvalue).toBe('A');
      expect(processed).toEqual(['a']);
      await queue.obliterate({ force: true });
    } finally {
      await app.close();
    }
  });

  it('hands errors of queues and workers to the service logger, never to console.error', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RedisModule.forRootAsync({ useFactory: () => testRedisOptions(prefix) }),
        QueueModule.forRoot(),
        ProbeModule,
      ],
    }).compile();
    const app = await moduleRef.init();
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const worker = app.get(ProbeProcessor).worker;
      worker.emit('error', new Error('Missing key for job 1. moveToFinished'));
      worker.emit('error', new Error('Missing key for job 2. moveToFinished'));
      app.get(ProbeProducer).queue.emit('error', new Error('Connection is closed.'));
      expect(consoleError).not.toHaveBeenCalled();
      const lines = logged.mock.calls.map(([fields, message]) => ({
        fields: fields as Record<string, unknown>,
        message,
      }));
      expect(lines).toEqual([
        {
          fields: expect.objectContaining({
            event: 'queue_error',
            source: 'Worker probe-queue',
            err: expect.any(Error),
          }),
          message: 'Worker probe-queue: Missing key for job 1. moveToFinished',
        },
        {
          fields: expect.objectContaining({ event: 'queue_error', source: 'Queue probe-queue' }),
          message: 'Queue probe-queue: Connection is closed.',
        },
      ]);
    } finally {
      consoleError.mockRestore();
      logged.mockRestore();
      await app.close();
    }
  });

  it('publishes queue depth by state and job durations on the metrics registry', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        MetricsModule,
        RedisModule.forRootAsync({ useFactory: () => testRedisOptions(prefix) }),
        QueueModule.forRoot(),
        ProbeModule,
      ],
    }).compile();
    const app = await moduleRef.init();
    try {
      const { queue } = app.get(ProbeProducer);
      await queue.add('probe', { value: 'timed' }, { jobId: 'timed-1' });
      await waitFor(async () => (await queue.getJobState('timed-1')) === 'completed', { what: 'job completion' });
      const text = await app.get(MetricsRegistry).metrics();
      expect(text).toMatch(/bullmq_queue_jobs\{queue="probe-queue",state="waiting"\} 0/);
      expect(text).toMatch(
        /bullmq_job_duration_seconds_count\{queue="probe-queue",name="probe",outcome="completed"\} 1/,
      );
      await queue.obliterate({ force: true });
    } finally {
      await app.close();
    }
  });
});
