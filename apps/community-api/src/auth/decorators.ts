import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiSecurity } from '@nestjs/swagger';
import type { Caller, CallerKind, Project } from '@acme/community';
import { CALLER_RULE, CallerGuard, CallerRule } from './caller.guard';
import { CommunityRequest } from './community-request';
import { ProjectGuard } from './project.guard';

/** A project route open to anyone (verify-email): only resolves the project. */
export const ProjectRoute = () =>
  applyDecorators(UseGuards(ProjectGuard), ApiParam({ name: 'projectId', description: 'Project id (UUID)' }));

/**
 * A project route for the given caller kinds, e.g. `@Authenticated(['user', 'service', 'master'])`.
 * Guard order: project (404), caller (401/403); bundle checks follow in the handler or service.
 */
export const Authenticated = (kinds: CallerKind[], options: Omit<CallerRule, 'kinds'> = {}) =>
  applyDecorators(
    SetMetadata(CALLER_RULE, { kinds, ...options } satisfies CallerRule),
    UseGuards(ProjectGuard, CallerGuard),
    ApiParam({ name: 'projectId', description: 'Project id (UUID)' }),
    ApiBearerAuth(),
    // OpenAPI's "no credentials" alternative: `security: [{bearer: []}, {}]`.
    ...(options.optional ? [ApiSecurity({})] : []),
  );

const request = (context: ExecutionContext) => context.switchToHttp().getRequest<CommunityRequest>();

/** The project resolved from the path (needs `@ProjectRoute()` or `@Authenticated()`). */
export const CurrentProject = createParamDecorator((_: unknown, context: ExecutionContext): Project => {
  const project = request(context).project;
  if (!project) throw new Error('CurrentProject used on a route without ProjectGuard');
  return project;
});

/** The authenticated caller (needs `@Authenticated()`). */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = request(context).caller;
  if (!caller) throw new Error('CurrentCaller used on a route without CallerGuard');
  return caller;
});

/** The end user's id (needs `@Authenticated(['user'])`). */
export const CurrentUserId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const caller = request(context).caller;
  if (caller?.kind !== 'user') throw new Error('CurrentUserId used on a route that accepts keys');
  return caller.userId;
});

/** The end user's id when an end-user token came with the request (`@Authenticated(['user'], { optional: true })`). */
export const OptionalUserId = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const caller = request(context).caller;
  return caller?.kind === 'user' ? caller.userId : undefined;
});

/** The client address as the engine resolved it through its trusted proxies (the same list for both). */
export const ClientAddress = createParamDecorator(
  (_: unknown, context: ExecutionContext): string => request(context).ip ?? 'unknown',
);
