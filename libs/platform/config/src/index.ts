export * from './lib/base-env';
export * from './lib/env-decorators';
export * from './lib/validate-env';
export * from './lib/env.module';
export * from './lib/cidr-list';
export * from './lib/event-partitions-env';
