import { DynamicModule, Inject, Module, NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import { redactUrl } from './redact';
import { serializeError } from './safe-error';

export interface LoggingOptions {
  service: string;
  level: string;
  /** The HTTP engine under Nest (see ServiceDefinition.platform); decides how request lines are written. */
  engine?: 'express' | 'fastify';
}

const LOGGING_ENGINE = Symbol('LOGGING_ENGINE');

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

const UNLOGGED = new Set(['/health', '/metrics']);

/**
 * JSON lines through pino, one per request with its id; credentials never reach a log line.
 * Express: pino-http middleware (and the request's logger bound for the handlers). Fastify: the line is written
 * from its onResponse hook with the id Fastify chose, so the hot path pays no per-request child logger,
 * response listeners or async context; logs written inside handlers then carry no request id.
 */
@Module({})
export class LoggingModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGING_ENGINE) private readonly engine: LoggingOptions['engine'],
  ) {}

  static forRootAsync(options: { inject: any[]; useFactory: (...args: any[]) => LoggingOptions }): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: options.inject as any[],
          useFactory: (...args: any[]) => {
            const { service, level, engine } = options.useFactory(...args);
            return {
              // No route: the Fastify hook below writes the request lines.
              ...(engine === 'fastify' ? { forRoutes: [] } : {}),
              pinoHttp: {
                level,
                base: { service },
                genReqId: requestIdFor,
                autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED.has(req.url ?? '') },
                redact: {
                  paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-service-auth-token"]', 'req.headers["x-service-api-key"]', 'req.headers["x-rum-client-token"]', 'res.headers["set-cookie"]'],
                  censor: '[REDACTED]',
                },
                serializers: {
                  err: serializeError,
                  req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
                },
              },
            };
          },
        }),
      ],
      providers: [{ provide: LOGGING_ENGINE, inject: options.inject, useFactory: (...args: any[]) => options.useFactory(...args).engine ?? 'express' }],
    };
  }

  configure(): void {
    if (this.engine !== 'fastify') return;
    const instance = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    instance.addHook('onResponse', (request, reply, done) => {
      const root = PinoLogger.root;
      if (root.isLevelEnabled('info') && !UNLOGGED.has(request.url)) {
        // The logger's req/res serializers (pino-http's, set up above) shape this like the Express lines.
        const req = { id: request.id, method: request.method, url: request.url };
        root.info({ req, res: reply.raw, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
      }
      done();
    });
  }
}
