export * from './lib/redact';
export * from './lib/logging.module';
export * from './lib/metrics';
export * from './lib/health';
export * from './lib/safe-error';
export * from './lib/shutdown-state';
export * from './lib/idle-collection';
export * from './lib/event-loop';
