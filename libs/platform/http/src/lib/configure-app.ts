import { Reflector } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { parse as parseQueryString } from 'node:querystring';
import { Logger } from 'nestjs-pino';
import { BaseEnv, parseCidrList } from '@acme/platform-config';
import { AppExceptionFilter, AppValidationPipe } from '@acme/platform-errors';
import { logRequestCompleted, MetricsRegistry, RequestLogContext } from '@acme/platform-observability';
import type { NextFunction, Request, Response } from 'express';
import { clientErrorResponder } from './client-errors';
import { BodyLimitGuard, declaredLength, deferIfLarge, isDeferred, mediaTypeOf, readBody } from './body-limit';
import { bodyLimitBytes, GLOBAL_BODY_LIMIT, isFastify, proxyTrustOf, ServiceApplication } from './http-platform';
import { mountOpenApi } from './openapi';
import { StorableTextGuard } from './storable-text.guard';
import { ServiceDefinition } from './service-definition';
import { routineStartLogsAtDebug } from './routine-start-logs';

type ContentTypeParserDoneFunction = (error: Error | null, body?: unknown) => void;

/** Express knows the matched route once its router ran, so the duration is recorded when the response ends. */
function configureExpressMetrics(app: NestExpressApplication, metrics: MetricsRegistry): void {
  app.use((request: Request, response: Response, next: NextFunction) => {
    const started = performance.now();
    response.on('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      metrics.observeRequest(
        request.method,
        `${request.baseUrl}${route}`,
        response.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  });
}

function configureExpress(app: NestExpressApplication, service: ServiceDefinition): void {
  app.disable('x-powered-by');
  configureExpressMetrics(app, app.get(MetricsRegistry));
  // Fastify takes the same responder as its clientErrorHandler (createHttpAdapter).
  app.getHttpServer().on('clientError', clientErrorResponder(service.presenter));
  app.set('trust proxy', proxyTrustOf(app.getHttpAdapter().getInstance()).trusts);
  app.set('query parser', 'extended');
  const limit = bodyLimitBytes(GLOBAL_BODY_LIMIT);
  // A body declaring more than the global limit stays unread here (body-limit.ts: the route decides, after auth).
  app.use((request: Request, _response: Response, next: NextFunction) => {
    deferIfLarge(request, limit);
    next();
  });
  const parses = (mediaType: string) => (request: IncomingMessage) =>
    !isDeferred(request) && mediaTypeOf(request) === mediaType;
  app.useBodyParser('json', { limit, type: parses('application/json') });
  app.useBodyParser('urlencoded', { limit, extended: false, type: parses('application/x-www-form-urlencoded') });
}

/**
 * Body parsing as on Express: an empty JSON body reads as `{}` (clients send Content-Type: application/json
 * on bodiless DELETEs), forms as node:querystring reads them (body-parser's `extended: false`).
 */
function configureFastifyParsers(app: NestFastifyApplication, service: ServiceDefinition): void {
  const instance = app.getHttpAdapter().getInstance();
  const limit = bodyLimitBytes(GLOBAL_BODY_LIMIT);
  const json = instance.getDefaultJsonParser('error', 'error');
  // Read here rather than with `parseAs`, which would refuse a large body before the route could take it.
  const reading =
    (parse: (request: FastifyRequest, body: Buffer, done: ContentTypeParserDoneFunction) => void) =>
    (request: FastifyRequest, payload: Readable, done: ContentTypeParserDoneFunction) => {
      // Left unread for the route (body-limit.ts: a 413 at once, or read after its guards).
      if (deferIfLarge(request.raw, limit)) return done(null, undefined);
      readBody(payload, limit, declaredLength(request.raw)).then(
        (body) => parse(request, body, done),
        (error: Error) => done(error, undefined),
      );
    };
  instance.addContentTypeParser(
    'application/json',
    reading((request, body, done) => {
      if (body.length === 0) return done(null, {});
      json(request, body.toString('utf8'), done);
    }),
  );
  instance.addContentTypeParser(
    'application/x-www-form-urlencoded',
    reading((_request, body, done) => done(null, parseQueryString(body.toString()))),
  );
  // Any other media type left unread, as Express leaves it (a multipart route pipes the Node request into its own parser).
  if (service.unparsedBodies === 'unread')
    instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

/**
 * Request logging as pino-http does it on Express (LoggingModule): the id Fastify chose (createHttpAdapter)
 * echoed, handler logs carrying the request, one completed line. Fastify keeps the async context entered here
 * across body parsing (its content-type parser binds its callback), so one context per request is enough.
 * The same end-of-response hook records the request's duration under its matched route pattern.
 */
function configureFastifyObservability(app: NestFastifyApplication, metrics: MetricsRegistry): void {
  const instance = app.getHttpAdapter().getInstance();
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    new RequestLogContext(request).run(done);
  });
  instance.addHook('onResponse', (request, reply, done) => {
    logRequestCompleted(request, reply.raw, reply.elapsedTime);
    metrics.observeRequest(
      request.method,
      request.routeOptions?.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

function configureFastify(app: NestFastifyApplication, service: ServiceDefinition): void {
  configureFastifyParsers(app, service);
  configureFastifyObservability(app, app.get(MetricsRegistry));
}

/** Everything an app needs between creation and listen; tests call it too, so they run the real stack. */
export function configureApp<A extends ServiceApplication>(app: A, service: ServiceDefinition): A {
  app.useLogger(routineStartLogsAtDebug(app.get(Logger)));
  // The one place the client address is decided, for every service and both engines (docs/decisions.md#client-addresses-and-the-operator-surface).
  proxyTrustOf(app.getHttpAdapter().getInstance()).configure(parseCidrList(app.get(BaseEnv).TRUSTED_PROXIES));
  // Fastify's other settings are constructor options (createHttpAdapter).
  if (isFastify(app)) configureFastify(app, service);
  else configureExpress(app as NestExpressApplication, service);
  // Registered before any APP_GUARD, so it runs ahead of guards that query the database.
  const reflector = app.get(Reflector);
  app.useGlobalGuards(new BodyLimitGuard(reflector), new StorableTextGuard(reflector));
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter(service.presenter));
  mountOpenApi(app, service);
  return app;
}
