import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

export const SPACE_MEMBER_STATUSES = ['active', 'pending', 'banned'] as const;
export type SpaceMemberStatus = (typeof SPACE_MEMBER_STATUSES)[number];

@Entity({ schema: COMMUNITY_SCHEMA, name: 'spaces' })
export class Space {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}

@Entity({ schema: COMMUNITY_SCHEMA, name: 'space_members' })
export class SpaceMember {
  @PrimaryColumn('uuid') spaceId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('uuid') projectId: string;
  @Column('text') status: SpaceMemberStatus;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
