export * from '@acme/platform-test-infra';
export * from './lib/test-app';
export * from './lib/foundation-checks';
