import { ErrorPresenter } from '@acme/platform-errors';

/** What the shared bootstrap needs to know about one service. */
export interface ServiceDefinition {
  name: string;
  title: string;
  description: string;
  version: string;
  presenter: ErrorPresenter;
  /** Largest JSON or form body accepted (multipart is streamed by the routes that take it), e.g. '1mb'. */
  bodyLimit?: string;
  /**
   * The HTTP engine under Nest. Express (the default) where routes need its ecosystem (multipart streams,
   * bull-board); Fastify where the per-request cost of the framework matters (the management API's hot routes).
   */
  platform?: 'express' | 'fastify';
  /**
   * Routes that stream `multipart/form-data` themselves (busboy on the Node request). Express never parses
   * multipart; on Fastify this registers a parser that leaves the body unread for the route (else 415).
   */
  streamsMultipart?: boolean;
  /**
   * The API's error body classes for its OpenAPI document: every operation may answer 4XX and 5XX in `default`'s
   * shape (or `byPath[path]`'s) unless it documents that status itself.
   */
  errorBodies?: { default: import('@nestjs/common').Type<unknown>; byPath?: Record<string, import('@nestjs/common').Type<unknown>> };
  /** Adds the service's security schemes and tags to its OpenAPI document. */
  decorateOpenApi?: (builder: import('@nestjs/swagger').DocumentBuilder) => import('@nestjs/swagger').DocumentBuilder;
}
