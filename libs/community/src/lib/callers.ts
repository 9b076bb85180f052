import { Injectable } from '@nestjs/common';
import { Project } from './projects/project.entity';
import { ProjectService } from './projects/project.service';
import { AccessTokenService } from './sessions/access-token.service';
import { CommunityErrors } from './community.errors';

/** Who is calling a project route: an end user (access token), or the project's service or master key. */
export type Caller = { kind: 'user'; userId: string } | { kind: 'service' } | { kind: 'master' };
export type CallerKind = Caller['kind'];

/**
 * The rules of docs/community-api.md: no credentials is `undefined` (the guard answers 401 `auth/unauthorized`); a key that
 * is not this project's, or an invalid or expired access token, is 403 `auth/forbidden`.
 */
@Injectable()
export class CallerResolver {
  constructor(
    private readonly projects: ProjectService,
    private readonly accessTokens: AccessTokenService,
  ) {}

  resolve(project: Project, bearer: string | undefined): Caller | undefined {
    if (!bearer) return undefined;
    if (bearer.startsWith('sk_') || bearer.startsWith('mk_')) {
      const kind = this.projects.matchKey(project, bearer);
      if (!kind) throw CommunityErrors.forbidden('Invalid API key.');
      return { kind };
    }
    return { kind: 'user', userId: this.accessTokens.verify(project.id, bearer) };
  }
}

/** The user a request acts for: the end user themself, or the `userId` a service or master key names. */
export function actingUserId(caller: Caller, userId: string | undefined): string | undefined {
  return caller.kind === 'user' ? caller.userId : userId;
}
