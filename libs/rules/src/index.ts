export * from './lib/filters';
export * from './lib/matcher';
