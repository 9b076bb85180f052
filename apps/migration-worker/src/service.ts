import { ServiceDefinition } from '@acme/platform-http';
import { presentMigrationError } from './http/error-presenter';
import { MigrationErrorResponse } from './migrations/dto/migration.response.dto';

export const migrationService: ServiceDefinition = {
  name: 'migration-worker',
  title: 'Document Migration API',
  description: 'Velt-style bulk document migration between organizations, driven by BullMQ workers.',
  version: '2.0',
  presenter: presentMigrationError,
  errorBodies: { default: MigrationErrorResponse },
  decorateOpenApi: (builder) =>
    builder
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-service-api-key' }, 'apiKey')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-service-auth-token' }, 'authToken')
      .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'operator'),
};
