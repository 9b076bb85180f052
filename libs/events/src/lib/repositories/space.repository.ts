import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUuid } from '@acme/platform-persistence';
import { Space, SpaceMember, SpaceMemberStatus } from '../space.entity';

/** Spaces and their memberships; every statement is scoped to the project. */
@Injectable()
export class SpaceRepository {
  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    @InjectRepository(SpaceMember) private readonly members: Repository<SpaceMember>,
  ) {}

  insert(projectId: string, name: string): Promise<Space> {
    return this.spaces.save(this.spaces.create({ projectId, name }));
  }

  /** The space, or undefined (also for ids that are not UUIDs, and for spaces of other projects). */
  async findInProject(projectId: string, spaceId: string): Promise<Space | undefined> {
    if (!isUuid(spaceId)) return undefined;
    return (await this.spaces.findOneBy({ projectId, id: spaceId })) ?? undefined;
  }

  /** Inserts or updates one membership (the space must be the project's: the caller checks it first). */
  async upsertMembership(
    projectId: string,
    spaceId: string,
    userId: string,
    status: SpaceMemberStatus,
  ): Promise<SpaceMember> {
    await this.members
      .createQueryBuilder()
      .insert()
      .values({ projectId, spaceId, userId, status })
      .orUpdate(['status', 'updated_at'], ['space_id', 'user_id'])
      .execute();
    return this.members.findOneByOrFail({ projectId, spaceId, userId });
  }

  isActiveMember(projectId: string, spaceId: string, userId: string): Promise<boolean> {
    return this.members.existsBy({ projectId, spaceId, userId, status: 'active' });
  }
}
