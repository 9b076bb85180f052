export * from './lib/redis.options';
export * from './lib/redis-client';
export * from './lib/redis-pubsub';
export * from './lib/redis.module';
export * from './lib/redis-url';
