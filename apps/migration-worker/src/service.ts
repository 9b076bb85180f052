import { ServiceDefinition } from '@acme/platform-http';
import { presentMigrationError } from './http/error-presenter';

export const migrationService: ServiceDefinition = {
  name: 'migration-worker',
  title: 'Document Migration API',
  description: 'Velt-style bulk document migration between organizations, driven by BullMQ workers.',
  version: '2.0',
  presenter: presentMigrationError,
};
