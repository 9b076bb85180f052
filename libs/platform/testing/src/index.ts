export * from './lib/test-infra';
export * from './lib/test-app';
export * from './lib/wait-for';
export * from './lib/foundation-checks';
