import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { setResponseHeaders } from '@acme/platform-http';
import { map, Observable } from 'rxjs';
import { RumRequest, requestIdOf } from './request-context';

const ENVELOPED = 'rum:enveloped';

/** Marks a controller whose successes are `{request_id, data}` (the spec's envelope); operator routes are not. */
export const Enveloped = () => SetMetadata(ENVELOPED, true);

/** Every response carries `Service-Request-Id`; failures get it from the presenter, successes here. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const requestId = requestIdOf(http.getRequest<RumRequest>());
    setResponseHeaders(http.getResponse(), { 'Service-Request-Id': requestId });
    const enveloped = this.reflector.getAllAndOverride<boolean>(ENVELOPED, [context.getHandler(), context.getClass()]);
    return enveloped ? next.handle().pipe(map((data: unknown) => ({ request_id: requestId, data: data ?? null }))) : next.handle();
  }
}
