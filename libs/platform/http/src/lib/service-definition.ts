import { ErrorPresenter } from '@acme/platform-errors';

/** What the shared bootstrap needs to know about one service. */
export interface ServiceDefinition {
  name: string;
  title: string;
  description: string;
  version: string;
  presenter: ErrorPresenter;
  /** Largest JSON or form body accepted (multipart is streamed by the routes that take it). */
  bodyLimit?: string;
  /** Adds the service's security schemes and tags to its OpenAPI document. */
  decorateOpenApi?: (builder: import('@nestjs/swagger').DocumentBuilder) => import('@nestjs/swagger').DocumentBuilder;
}
