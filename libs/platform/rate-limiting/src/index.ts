export * from './lib/rate-limiter';
export * from './lib/rate-limiting.module';
