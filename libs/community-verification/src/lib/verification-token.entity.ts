import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

/** An email verification token, stored as an HMAC; at most one live (unconsumed) row per user. */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'verification_tokens' })
export class VerificationToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  @Column('text')
  tokenDigest: string;

  @Column('text')
  mode: string;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz', { nullable: true })
  consumedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
