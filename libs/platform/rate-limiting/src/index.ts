export * from './lib/rate-limiter';
export * from './lib/rate-limit-enforcer';
export * from './lib/rate-limiting.module';
