import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiExtension, ApiOAuth2, ApiResponse } from '@nestjs/swagger';
import { AppError } from '@acme/platform-errors';
import { ManagementErrorCode } from '../http/management-error-code';
import { managementAuthOf, ManagementRequest } from './management-auth';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';

const SCOPES = 'management:scopes';

/** Fails with the request's 401 when the token did not verify, or 403 when it lacks every accepted scope. */
@Injectable()
export class ManagementAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const outcome = managementAuthOf(
      context.switchToHttp().getRequest<ManagementRequest | { raw: ManagementRequest }>(),
    );
    if (!outcome) throw new AppError(ManagementErrorCode.INVALID_TOKEN, 'unauthorized', 'Invalid token');
    if (outcome.failure) throw outcome.failure;
    const accepted =
      this.reflector.getAllAndOverride<string[]>(SCOPES, [context.getHandler(), context.getClass()]) ?? [];
    if (accepted.length > 0 && !accepted.some((scope) => outcome.principal.scopes.has(scope))) {
      throw new AppError(
        ManagementErrorCode.INSUFFICIENT_SCOPE,
        'forbidden',
        `Insufficient scope, expected any of: ${accepted.join(',')}`,
      );
    }
    return true;
  }
}

/** Bearer auth plus the scopes accepted by a route, enforced and documented together. */
export function RequireScopes(...scopes: string[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(SCOPES, scopes),
    UseGuards(ManagementAuthGuard),
    ApiBearerAuth('bearer'),
    ApiOAuth2(scopes, 'oauth2'),
    ApiExtension('x-required-scopes', scopes),
    ApiResponse({
      status: 401,
      description: 'Invalid token; Invalid signature; Client is not global',
      type: ManagementErrorBody,
    }),
    ApiResponse({
      status: 403,
      description: `Insufficient scope, expected any of: ${scopes.join(',')}`,
      type: ManagementErrorBody,
    }),
    ApiResponse({
      status: 429,
      description: 'Too many requests (X-RateLimit-* headers describe the limit)',
      type: ManagementErrorBody,
    }),
  );
}
