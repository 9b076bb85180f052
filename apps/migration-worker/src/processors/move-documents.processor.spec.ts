import { Job } from 'bullmq';
import { MIGRATION_JOBS, MigrationRunner } from '@acme/document-migration';
import { MoveDocumentsProcessor } from './move-documents.processor';

const job = (attemptsMade: number, attempts = 3, name: string = MIGRATION_JOBS.moveSlice) =>
  ({ name, data: { migrationId: 'm-1', slice: 2 }, attemptsMade, opts: { attempts } }) as unknown as Job;

describe('MoveDocumentsProcessor', () => {
  const runner = { runSlice: jest.fn(), fail: jest.fn(), describeFailure: jest.fn(() => 'why') };
  const processor = new MoveDocumentsProcessor(runner as unknown as MigrationRunner);
  beforeEach(() => jest.clearAllMocks());

  it('hands the slice to the runner', async () => {
    runner.runSlice.mockResolvedValue('finished');
    await expect(processor.process(job(0) as never)).resolves.toBe('finished');
    expect(runner.runSlice).toHaveBeenCalledWith('m-1', 2);
  });

  it('rethrows without failing the migration while attempts remain', async () => {
    runner.runSlice.mockRejectedValue(new Error('db down'));
    await expect(processor.process(job(1) as never)).rejects.toThrow('db down');
    expect(runner.fail).not.toHaveBeenCalled();
  });

  it('fails the migration with the described reason on the last attempt', async () => {
    runner.runSlice.mockRejectedValue(new Error('duplicate'));
    await expect(processor.process(job(2) as never)).rejects.toThrow('duplicate');
    expect(runner.fail).toHaveBeenCalledWith('m-1', 'why');
  });

  it('refuses a job name it does not know', async () => {
    await expect(processor.process(job(0, 3, 'other') as never)).rejects.toThrow('Unknown job other');
    expect(runner.runSlice).not.toHaveBeenCalled();
  });
});
