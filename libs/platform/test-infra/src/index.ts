export * from './lib/test-infra';
export * from './lib/wait-for';
export * from './lib/redis-cluster-launcher';
export * from './lib/postgres-replica-launcher';
export * from './lib/test-replica';
