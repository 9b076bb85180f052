import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
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
    const request = http.getRequest<Request & { id?: string }>();
    const response = http.getResponse<Response>();
    const { error, status, unexpected } = normalizeError(thrown);
    const requestId = String(request.id ?? randomUUID());
    if (unexpected) {
      const errorId = randomUUID();
      this.logger.error({ errorId, requestId, err: thrown }, 'Unhandled error');
    }
    const presented = this.present({
      status,
      code: error.code,
      kind: error.kind,
      message: error.message,
      details: error.details,
      requestId,
    });
    if (response.headersSent) return;
    for (const [name, value] of Object.entries({ ...error.headers, ...presented.headers })) response.setHeader(name, value);
    response.status(presented.status).json(presented.body);
  }
}
