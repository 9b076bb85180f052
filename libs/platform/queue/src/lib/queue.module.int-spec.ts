import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Job, Queue } from 'bullmq';
import { RedisModule } from '@acme/platform-redis';
import { createTestRedisPrefix, testRedisUrl, waitFor } from '@acme/platform-test-infra';
import { BullModule } from '@nestjs/bullmq';
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
      imports: [RedisModule.forRootAsync({ useFactory: () => ({ url: testRedisUrl(), prefix }) }), QueueModule.forRoot(), ProbeModule],
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
});
