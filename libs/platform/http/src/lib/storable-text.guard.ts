import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, findTextProblem, TextProblem, PlatformErrorCode } from '@acme/platform-errors';
import { RouteMetadata } from './route-metadata';

export const OPAQUE_BODY = Symbol('OPAQUE_BODY');

/**
 * The route stores its body as an opaque client payload and neutralises unstorable text itself
 * (docs/decisions.md#text-postgresql-cannot-hold); its body is still bounded in depth.
 */
export const OpaqueBody = () => SetMetadata(OPAQUE_BODY, true);

interface InspectableRequest {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** The 400 every presenter renders in its own shape; `location` is where the value came from. */
export function unstorableText(problem: TextProblem, location: 'body' | 'query' | 'param'): AppError {
  return new AppError(PlatformErrorCode.VALIDATION_FAILED, 'validation', problem.message, {
    details: { location, field: problem.field, issues: [{ property: problem.field, constraints: [problem.message] }] },
  });
}

/**
 * Global guard, first of all guards: path parameters, query and parsed JSON/form body holding NUL or lone
 * surrogates (or nested absurdly deep) are refused before any guard, pipe or handler can send them to
 * PostgreSQL (docs/decisions.md#text-postgresql-cannot-hold). Multipart fields are checked where they are parsed.
 */
@Injectable()
export class StorableTextGuard implements CanActivate {
  private readonly opaqueBody: RouteMetadata<boolean>;

  constructor(reflector: Reflector) {
    this.opaqueBody = new RouteMetadata(reflector, OPAQUE_BODY);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<InspectableRequest>();
    const opaque = this.opaqueBody.of(context) === true;
    const param = findTextProblem(request.params);
    if (param) throw unstorableText(param, 'param');
    const query = findTextProblem(request.query);
    if (query) throw unstorableText(query, 'query');
    const body = findTextProblem(request.body, { checkStrings: !opaque });
    if (body) throw unstorableText(body, 'body');
    return true;
  }
}
