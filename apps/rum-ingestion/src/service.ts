import { ServiceDefinition } from '@acme/platform-http';
import { RumErrorBody } from './http/error-body.dto';
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
};
