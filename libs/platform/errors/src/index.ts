export * from './lib/app-error';
export * from './lib/presented-error';
export * from './lib/normalize-error';
export * from './lib/app-exception.filter';
export * from './lib/validation';
export * from './lib/storable-text';
export * from './lib/database-unavailable';
export * from './lib/platform-error-code';
