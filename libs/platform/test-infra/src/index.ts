export * from './lib/test-infra';
export * from './lib/wait-for';
export * from './lib/redis-cluster-launcher';
