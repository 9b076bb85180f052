import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { setResponseHeaders, SuccessEnvelope } from '@acme/platform-http';
import { Observable } from 'rxjs';
import { RumRequest, requestIdOf } from './request-context';

/** The spec's success envelope `{request_id, data}`, for `@Enveloped()` routes (operator routes are not). */
@Injectable()
export class RumEnvelope extends SuccessEnvelope {
  wrap(data: unknown, context: ExecutionContext): unknown {
    return { request_id: requestIdOf(context.switchToHttp().getRequest<RumRequest>()), data: data ?? null };
  }
}

/** Every response carries `Service-Request-Id`; failures get it from the presenter, successes here. */
@Injectable()
export class RequestIdHeaderInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    setResponseHeaders(http.getResponse(), { 'Service-Request-Id': requestIdOf(http.getRequest<RumRequest>()) });
    return next.handle();
  }
}
