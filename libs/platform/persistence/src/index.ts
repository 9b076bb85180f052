export * from './lib/snake-naming.strategy';
export * from './lib/data-source';
export * from './lib/timestamp-text';
export * from './lib/migrations-runner';
export * from './lib/transactions';
export * from './lib/uuid';
export * from './lib/persistence.module';
export * from './lib/read-replicas';
