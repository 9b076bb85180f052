import { ServiceDefinition } from '@acme/platform-http';
import { presentManagementError } from './http/error-presenter';

export const managementService: ServiceDefinition = {
  name: 'management-api',
  title: 'Management API',
  description: 'Auth0-compatible management API: OAuth client credentials, clients, grants and rate-limit policies.',
  version: '2.0',
  presenter: presentManagementError,
  decorateOpenApi: (builder) => builder.addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer'),
};
