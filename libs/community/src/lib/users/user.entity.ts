import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

/** An end user of one project; emails are unique per project (stored trimmed and lower-cased). */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  projectId: string;

  @Column('text')
  email: string;

  @Column('text', { select: false })
  passwordHash: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('boolean', { default: false })
  isVerified: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** The user as clients see it (never the password hash). */
export interface PublicUser {
  id: string;
  projectId: string;
  email: string;
  name: string | null;
  isVerified: boolean;
  createdAt: string;
}

export const toPublicUser = (user: User): PublicUser => ({
  id: user.id,
  projectId: user.projectId,
  email: user.email,
  name: user.name,
  isVerified: user.isVerified,
  createdAt: user.createdAt.toISOString(),
});
