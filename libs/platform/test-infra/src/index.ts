export * from './lib/test-infra';
export * from './lib/wait-for';
