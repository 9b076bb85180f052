import { DynamicModule, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { redactUrl } from './redact';

export interface LoggingOptions {
  service: string;
  level: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFromHeader(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The request's id, echoed on the response. Under Fastify the engine has already chosen it
 * (requestIdFromHeader, copied to the raw request by its middleware layer), so both engines log the same id.
 */
export function requestIdFor(request: IncomingMessage & { id?: unknown }, response: ServerResponse): string {
  const id = typeof request.id === 'string' ? request.id : requestIdFromHeader(request);
  response.setHeader('X-Request-Id', id);
  return id;
}

/** JSON lines through pino, one per request with its id; credentials never reach a log line. */
@Module({})
export class LoggingModule {
  static forRootAsync(options: { inject: any[]; useFactory: (...args: any[]) => LoggingOptions }): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: options.inject as any[],
          useFactory: (...args: any[]) => {
            const { service, level } = options.useFactory(...args);
            return {
              pinoHttp: {
                level,
                base: { service },
                genReqId: requestIdFor,
                autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health' || req.url === '/metrics' },
                redact: {
                  paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-service-auth-token"]', 'req.headers["x-service-api-key"]', 'req.headers["x-rum-client-token"]', 'res.headers["set-cookie"]'],
                  censor: '[REDACTED]',
                },
                serializers: {
                  req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
                },
              },
            };
          },
        }),
      ],
    };
  }
}
