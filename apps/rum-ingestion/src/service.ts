import { ServiceDefinition } from '@acme/platform-http';
import { RumErrorBody } from './http/dto/error-body.response.dto';
import { presentRumError } from './http/error-presenter';

export const rumService: ServiceDefinition = {
  name: 'rum-ingestion',
  title: 'RUM Ingestion API',
  description:
    'Flashduty-style error-ingestion rules, versioned rule-set history, and the ingest path that drops matching errors.',
  version: '1.0',
  presenter: presentRumError,
  errorBodies: { default: RumErrorBody },
  // Fastify: the ingest route's framework cost per batch of 100 is what this service spends its CPU on
  // (README, Benchmarks: app CPU per batch, Express vs Fastify); nothing here needs Express's ecosystem.
  platform: 'fastify',
  decorateOpenApi: (builder) =>
    builder
      .addApiKey(
        { type: 'apiKey', in: 'query', name: 'app_key', description: "An account's app key (`?app_key=`)" },
        'appKey',
      )
      .addApiKey(
        {
          type: 'apiKey',
          in: 'header',
          name: 'X-RUM-Client-Token',
          description: "An application's browser client token",
        },
        'clientToken',
      )
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator token, ADMIN_TOKEN' }, 'bearer'),
};
