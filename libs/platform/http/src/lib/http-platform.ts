import type { ServerResponse } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppExceptionFilter } from '@acme/platform-errors';
import { requestIdFromHeader } from '@acme/platform-observability';
import { clientErrorResponder } from './client-errors';
import { ServiceDefinition } from './service-definition';

export type ServiceApplication = NestExpressApplication | NestFastifyApplication;

/** Proxies whose X-Forwarded-* headers are believed (same list for both engines). */
export const TRUSTED_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Every service parses JSON and form bodies up to this size before routing (docs/security.md, API4). Larger
 * bodies are read only by routes that declare `@BodyLimit` (body-limit.ts), after their guards let the caller in.
 */
export const GLOBAL_BODY_LIMIT = '1mb';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '1mb' → 1048576 (the express body-parser notation, so a service states its limit once for both engines). */
export function bodyLimitBytes(limit: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit ?? '1mb');
  if (!match) throw new Error(`Unreadable body limit: ${limit}`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]);
}

/**
 * The adapter the service asked for (undefined: Nest's default, Express). Fastify is set up to behave like
 * the Express stack where clients can tell: case-insensitive paths, a trailing slash ignored, long path
 * parameters reach validation (a 400 in the API's shape rather than Fastify's 414), the caller's sane
 * X-Request-Id kept. Body parsers, for either engine, are registered by configureApp (create with
 * `bodyParser: false`).
 */
export function createHttpAdapter(service: ServiceDefinition): FastifyAdapter | undefined {
  if (service.platform !== 'fastify') return undefined;
  // Required here, not imported: Express services then never load Fastify and its plugins (~57 ms of start-up).
  const { FastifyAdapter } = require('@nestjs/platform-fastify') as typeof import('@nestjs/platform-fastify');
  const errors = new AppExceptionFilter(service.presenter);
  return new FastifyAdapter({
    logger: false,
    // Shutdown is ours (graceful-shutdown.ts): Fastify must not answer in-flight keep-alive requests with its own 503.
    return503OnClosing: false,
    trustProxy: TRUSTED_PROXIES,
    // Fastify's own readers (none for JSON or forms, see configure-app.ts) keep the global limit.
    bodyLimit: bodyLimitBytes(GLOBAL_BODY_LIMIT),
    genReqId: requestIdFromHeader,
    // Longer than any request line Node accepts (16 KB of headers), so every id reaches validation.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 65_536 },
    // Errors of Fastify's router (a broken percent-escape in the path) answer in the service's shape too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      errors.respond(error, request, reply),
    clientErrorHandler: clientErrorResponder(service.presenter),
  });
}

export function isFastify(app: INestApplication): app is NestFastifyApplication {
  return app.getHttpAdapter().getType() === 'fastify';
}

/** Sets headers on the response object a guard or interceptor holds, whichever engine runs. */
export function setResponseHeaders(response: unknown, headers: Record<string, string>): void {
  const target = response as {
    header?: (name: string, value: string) => unknown;
    setHeader?: (name: string, value: string) => unknown;
  };
  for (const [name, value] of Object.entries(headers)) {
    // Fastify's reply has header(); Express's response (a ServerResponse) has setHeader().
    if (typeof target.header === 'function' && typeof target.setHeader !== 'function') target.header(name, value);
    else target.setHeader?.(name, value);
  }
}

/** The Node request under whatever object a guard holds (Fastify wraps it in `raw`; Express extends it). */
export function rawRequest<T extends object>(request: T | { raw: T }): T {
  return 'raw' in request && typeof request.raw === 'object' && request.raw !== null
    ? (request.raw as T)
    : (request as T);
}

/** The Node response under whatever object a handler or guard holds (Fastify's reply wraps it in `raw`). */
export function rawResponse(response: ServerResponse | { raw: ServerResponse }): ServerResponse {
  return rawRequest<ServerResponse>(response);
}

/** Answers with a redirect from a handler holding the response (`@Res({ passthrough: true })`), on either engine. */
export function sendRedirect(response: unknown, location: string, status = 302): void {
  const target = response as { setHeader?: unknown; redirect: (...args: unknown[]) => unknown };
  // Express: redirect(status, url); Fastify (v5): redirect(url, status).
  if (typeof target.setHeader === 'function') target.redirect(status, location);
  else target.redirect(location, status);
}

/** Calls `done` with the status once the response is sent, whichever engine's response object a guard holds. */
export function onResponseFinished(response: object, done: (statusCode: number) => void): void {
  const raw = rawResponse(response as ServerResponse | { raw: ServerResponse });
  raw.once('finish', () => done(raw.statusCode));
}
