export * from './community-database';
