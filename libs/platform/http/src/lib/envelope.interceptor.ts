import {
  CallHandler,
  DynamicModule,
  ExecutionContext,
  Injectable,
  Module,
  NestInterceptor,
  SetMetadata,
  Type,
} from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';

const ENVELOPED = 'acme:enveloped';

/** Marks a controller or handler whose successes the app's SuccessEnvelope wraps; unmarked routes answer as returned. */
export const Enveloped = () => SetMetadata(ENVELOPED, true);

/** What an app supplies: how a marked handler's result becomes its success body (the wire's envelope). */
export abstract class SuccessEnvelope {
  abstract wrap(result: unknown, context: ExecutionContext): unknown;
}

/** Wraps the successes of `@Enveloped()` routes with the app's SuccessEnvelope; handlers return only the payload. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly envelope: SuccessEnvelope,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const enveloped = this.reflector.getAllAndOverride<boolean | undefined>(ENVELOPED, [
      context.getHandler(),
      context.getClass(),
    ]);
    return enveloped
      ? next.handle().pipe(map((result: unknown) => this.envelope.wrap(result, context)))
      : next.handle();
  }
}

/** The success envelope of every `@Enveloped()` route of the app, registered once as a global interceptor. */
@Module({})
export class EnvelopeModule {
  static withEnvelope(envelope: Type<SuccessEnvelope>): DynamicModule {
    return {
      module: EnvelopeModule,
      providers: [
        { provide: SuccessEnvelope, useClass: envelope },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
    };
  }
}
