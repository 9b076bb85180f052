import { Injectable } from '@nestjs/common';
import { EventErrors } from './events.errors';
import { SpaceRepository } from './repositories/space.repository';
import { Space, SpaceMember, SpaceMemberStatus } from './space.entity';

/** Spaces and memberships of a project (provisioned through the operator API). */
@Injectable()
export class SpaceService {
  constructor(private readonly spaces: SpaceRepository) {}

  create(projectId: string, name: string): Promise<Space> {
    return this.spaces.insert(projectId, name);
  }

  async findInProject(projectId: string, spaceId: string): Promise<Space | null> {
    return (await this.spaces.findInProject(projectId, spaceId)) ?? null;
  }

  /** Upserts one membership; an unknown space (or one of another project) is `event/space-not-found`. */
  async setMembership(
    projectId: string,
    spaceId: string,
    userId: string,
    status: SpaceMemberStatus,
  ): Promise<SpaceMember> {
    const space = await this.spaces.findInProject(projectId, spaceId);
    if (!space) throw EventErrors.spaceNotFound();
    return this.spaces.upsertMembership(projectId, space.id, userId, status);
  }

  isActiveMember(projectId: string, spaceId: string, userId: string): Promise<boolean> {
    return this.spaces.isActiveMember(projectId, spaceId, userId);
  }
}
