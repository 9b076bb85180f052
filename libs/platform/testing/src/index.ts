export * from '@acme/platform-test-infra';
export * from './lib/test-app';
export * from './lib/foundation-checks';
export * from './lib/hostile-input';
export * from './lib/openapi-walk';
export * from './lib/contract-check';
export * from './lib/browser';
export * from './lib/swagger-ui';
