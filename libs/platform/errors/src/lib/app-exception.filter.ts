import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rateLimitHeaders } from './rate-limit-headers';
import type { AppError } from './app-error';
import { overloadOf } from './database-unavailable';
import { normalizeError } from './normalize-error';
import type { ErrorPresenter } from './presented-error';

/** The one filter every app registers: anything thrown becomes the app's wire shape, never a driver's text. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AppExceptionFilter');

  constructor(private readonly present: ErrorPresenter) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw thrown;
    const http = host.switchToHttp();
    this.respond(thrown, http.getRequest(), http.getResponse());
  }

  /** Also called for errors the engine raises before Nest routes (Fastify's `frameworkErrors`). */
  respond(
    thrown: unknown,
    request: { id?: unknown; url?: string; method?: string; raw?: { id?: unknown } },
    response: AnyResponse,
  ): void {
    const { error, status, unexpected } = normalizeError(thrown);
    // Express: pino-http's id on the request; Fastify: the id it chose, also on its raw request.
    const requestId = String(request.raw?.id ?? request.id ?? randomUUID());
    if (unexpected) {
      const errorId = randomUUID();
      // Overload and an outage of a dependency are expected to happen: warnings; anything else is a bug.
      const overload = overloadOf(thrown);
      if (overload)
        this.logger.warn({ event: 'overload', errorId, requestId, overload, err: thrown }, 'Instance overloaded');
      else if (status === 503)
        this.logger.warn(
          { event: 'dependency_unavailable', errorId, requestId, err: thrown },
          'Dependency unavailable',
        );
      else this.logger.error({ errorId, requestId, err: thrown }, 'Unhandled error');
    }
    const presented = this.present({
      status,
      code: error.code,
      kind: error.kind,
      message: error.message,
      details: error.details,
      requestId,
      path: request.url?.split('?', 1)[0],
      method: request.method,
    });
    sendJson(response, presented.status, { ...headersOf(error), ...presented.headers }, presented.body);
  }
}

/** The HTTP side of a failure's data: a refusing rate-limit decision, or a 503's retry delay. */
function headersOf(error: AppError): Record<string, string> {
  if (error.rateLimit) return rateLimitHeaders(error.rateLimit);
  if (error.retryAfterSeconds !== undefined) return { 'Retry-After': String(error.retryAfterSeconds) };
  return {};
}

interface ExpressResponse extends ServerResponse {
  status(code: number): ExpressResponse;
  json(body: unknown): unknown;
}
interface FastifyReply {
  sent: boolean;
  raw: ServerResponse;
  code(status: number): FastifyReply;
  header(name: string, value: unknown): FastifyReply;
  send(body: unknown): unknown;
}
/** Express response, Fastify reply, or (an error thrown in middleware under Fastify) the raw Node response. */
export type AnyResponse = ExpressResponse | FastifyReply | ServerResponse<IncomingMessage>;

function sendJson(response: AnyResponse, status: number, headers: Record<string, string>, body: unknown): void {
  if ('raw' in response && 'code' in response) {
    if (response.sent) return;
    for (const [name, value] of Object.entries(headers)) response.header(name, value);
    response.code(status).send(body);
    return;
  }
  if (response.headersSent) return;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  if ('json' in response) {
    response.status(status).json(body);
    return;
  }
  const json = JSON.stringify(body);
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) })
    .end(json);
}
