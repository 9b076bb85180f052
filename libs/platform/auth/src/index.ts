export * from './lib/secrets';
export * from './lib/passwords';
export * from './lib/admin-token.guard';
export * from './lib/jwt-verification';
export * from './lib/sealed-secrets';
export * from './lib/metrics-token.guard';
