export * from './rule-set-oracle';
