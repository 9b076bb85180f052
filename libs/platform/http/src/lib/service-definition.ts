import { ErrorPresenter } from '@acme/platform-errors';

/** What the shared bootstrap needs to know about one service. */
export interface ServiceDefinition {
  name: string;
  title: string;
  description: string;
  version: string;
  presenter: ErrorPresenter;
  /**
   * The HTTP engine under Nest. Express (the default) where routes need its ecosystem (bull-board); Fastify where
   * the per-request cost of the framework matters (the management API's and the community API's hot routes).
   */
  platform?: 'express' | 'fastify';
  /**
   * Bodies of media types without a parser (JSON and forms have one). Fastify answers them 415 by default;
   * `'unread'` leaves them to the route as Express does: a route streaming `multipart/form-data` itself (busboy
   * on the Node request) reads it, any other route sees no body and its validation answers 400.
   */
  unparsedBodies?: 'unread';
  /**
   * The API's error body classes for its OpenAPI document: every operation may answer 4XX and 5XX in `default`'s
   * shape (or `byPath[path]`'s) unless it documents that status itself.
   */
  errorBodies?: {
    default: import('@nestjs/common').Type<unknown>;
    byPath?: Record<string, import('@nestjs/common').Type<unknown>>;
  };
  /** Adds the service's security schemes and tags to its OpenAPI document. */
  decorateOpenApi?: (builder: import('@nestjs/swagger').DocumentBuilder) => import('@nestjs/swagger').DocumentBuilder;
}
