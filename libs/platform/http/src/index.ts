// The service kernel (README, Layout): every service's runner, core module and HTTP engines, and the only code
// that knows which engine runs.
export * from './lib/service-definition';
export * from './lib/openapi';
export * from './lib/configure-app';
export * from './lib/run-service';
export * from './lib/service-core.module';
export * from './lib/http-platform';
export * from './lib/storable-text.guard';
export * from './lib/body-limit';
export * from './lib/route-metadata';
export * from './lib/rate-limit.guard';
export * from './lib/envelope.interceptor';
export * from './lib/heavy-route';
