import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EventError, EventErrorCode } from './events.errors';
import { Space, SpaceMember, SpaceMemberStatus } from './space.entity';

/** Spaces and memberships of a project (provisioned through the operator API). */
@Injectable()
export class SpaceService {
  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    @InjectRepository(SpaceMember) private readonly members: Repository<SpaceMember>,
  ) {}

  async create(projectId: string, name: string): Promise<Space> {
    return this.spaces.save(this.spaces.create({ projectId, name }));
  }

  async findInProject(projectId: string, spaceId: string): Promise<Space | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(spaceId)) return null;
    return this.spaces.findOneBy({ projectId, id: spaceId });
  }

  /** Upserts one membership; an unknown space (or one of another project) is `event/space-not-found`. */
  async setMembership(projectId: string, spaceId: string, userId: string, status: SpaceMemberStatus): Promise<SpaceMember> {
    const space = await this.findInProject(projectId, spaceId);
    if (!space) throw new EventError(EventErrorCode.SPACE_NOT_FOUND, 'The space does not exist.');
    await this.members
      .createQueryBuilder()
      .insert()
      .values({ projectId, spaceId, userId, status })
      .orUpdate(['status', 'updated_at'], ['space_id', 'user_id'])
      .execute();
    return this.members.findOneByOrFail({ projectId, spaceId, userId });
  }

  async isActiveMember(projectId: string, spaceId: string, userId: string): Promise<boolean> {
    return this.members.existsBy({ projectId, spaceId, userId, status: 'active' });
  }
}
