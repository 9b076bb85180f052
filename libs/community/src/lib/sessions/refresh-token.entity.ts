import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

/**
 * One refresh token of a session family. Rotation marks it used and issues the next one in the same family;
 * presenting a used token again revokes the whole family.
 */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'refresh_tokens' })
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  @Column('uuid')
  familyId: string;

  /** SHA-256 of the token; the token itself is never stored. */
  @Column('text')
  tokenDigest: string;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz', { nullable: true })
  usedAt: Date | null;

  @Column('timestamptz', { nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
