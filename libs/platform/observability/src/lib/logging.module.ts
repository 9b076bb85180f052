import { DynamicModule, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { pinoRequestStore, PinoRequestStore } from './pino-request-store';
import { redactUrl } from './redact';
import { serializeError } from './safe-error';
import { traceFields } from './trace-fields';

export interface LoggingOptions {
  service: string;
  level: string;
  /** The HTTP engine under Nest (see ServiceDefinition.platform); decides how request lines are written. */
  engine?: 'express' | 'fastify';
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFromHeader(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** pino-http's id for a request under Express, echoed on the response (Fastify chooses its own: createHttpAdapter). */
export function requestIdFor(request: IncomingMessage, response: ServerResponse): string {
  const id = requestIdFromHeader(request);
  response.setHeader('X-Request-Id', id);
  return id;
}

const UNLOGGED = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

/** What a log line says of its request; the `req` serializer below shapes it alike on both engines. */
export interface LoggedRequest {
  id: string;
  method: string;
  url: string;
}

/**
 * A request's log context for an engine without pino-http's middleware (Fastify; libs/platform/http enters it
 * from its hooks). Nest Logger and PinoLogger calls made inside `run` carry `req` as pino-http's child logger
 * makes them on Express. The child is made on the first such call: most requests log only their completed line.
 */
export class RequestLogContext implements PinoRequestStore {
  private bound: Logger | undefined;

  constructor(private readonly request: LoggedRequest) {}

  get logger(): Logger {
    const { id, method, url } = this.request;
    return (this.bound ??= PinoLogger.root.child({ req: { id, method, url } }));
  }

  // PinoLogger.assign() swaps in a child with more fields.
  set logger(logger: Logger) {
    this.bound = logger;
  }

  /** Runs `next`, and everything it starts, in this request's context. */
  run(next: () => void): void {
    pinoRequestStore.run(this, next);
  }
}

/** The request-completed line for an engine without pino-http, shaped like pino-http's on Express. */
export function logRequestCompleted(request: LoggedRequest, response: ServerResponse, responseTimeMs: number): void {
  const root = PinoLogger.root;
  if (!root.isLevelEnabled('info') || UNLOGGED.has(request.url)) return;
  // The logger's req/res serializers (pino-http's, set up below) shape it.
  const req = { id: request.id, method: request.method, url: request.url };
  root.info({ req, res: response, responseTime: Math.round(responseTimeMs) }, 'request completed');
}

/**
 * JSON lines through pino, one per request with its id; credentials never reach a log line; lines written
 * inside a handler carry the request (`req`). Express: pino-http middleware, which also binds the request's
 * logger for the handlers. Fastify: no middleware; libs/platform/http writes the completed line and enters a
 * RequestLogContext from Fastify's hooks, with the id Fastify chose.
 */
@Module({})
export class LoggingModule {
  static forRootAsync(options: { inject: any[]; useFactory: (...args: any[]) => LoggingOptions }): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: options.inject as any[],
          useFactory: (...args: any[]) => {
            const { service, level, engine } = options.useFactory(...args);
            return {
              // No route: Fastify's hooks write the request lines (see above).
              ...(engine === 'fastify' ? { forRoutes: [] } : {}),
              pinoHttp: {
                level,
                base: { service },
                // trace_id/span_id when an OpenTelemetry span is active (never with tracing off).
                mixin: traceFields,
                genReqId: requestIdFor,
                autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED.has(req.url ?? '') },
                redact: {
                  paths: [
                    'req.headers.authorization',
                    'req.headers.cookie',
                    'req.headers["x-service-auth-token"]',
                    'req.headers["x-service-api-key"]',
                    'req.headers["x-rum-client-token"]',
                    'res.headers["set-cookie"]',
                  ],
                  censor: '[REDACTED]',
                },
                serializers: {
                  err: serializeError,
                  req: (req: { id: string; method: string; url: string }) => ({
                    id: req.id,
                    method: req.method,
                    url: redactUrl(req.url),
                  }),
                },
              },
            };
          },
        }),
      ],
    };
  }
}
