export * from './lib/queue.module';
export * from './lib/queue-board';
export * from './lib/job-trace';
